// The edges of a sentence: leading and trailing whitespace, the final punctuation mark, and a length
// far from the source's. Each is a habit of translators' tools (trimming, dropping a final period)
// that shows in an app as a glued word, a question without its mark, or a label overflowing a button.

export function edgeWhitespace(text: string): { leading: boolean; trailing: boolean } {
  return { leading: /^\s/u.test(text), trailing: /\s$/u.test(text) };
}

// Final marks by meaning: a Japanese 。 ends a sentence as a period does; a Spanish question still
// ends with ?; Arabic has its own question mark. Scripts with their own marks: halfwidth ｡ (U+FF61),
// Armenian ։ (U+0589), Tibetan shad ། and ༎ (U+0F0D, U+0F0E) and Ethiopic ። are periods; Greek's
// question mark is ; or its own U+037E, Ethiopic's ፧ (U+1367).
const FINAL: ReadonlyArray<[string, RegExp]> = [
  ['ellipsis', /(?:…|\.\.\.)$/u],
  ['period', /[.。．｡।۔።\u0589\u0f0d\u0f0e]$/u],
  ['question', /[?？؟;\u037e\u1367]$/u],
  ['exclamation', /[!！]$/u],
  ['colon', /[:：]$/u],
];

// What may follow a sentence's final mark: whitespace, closing quotes and brackets of any language
// (German „…“ closes with “, Danish »…« with «, Swiss ‹…› with ›), and the invisible bidi marks
// (LRM, RLM, ALM, embeddings and isolates) an RTL value often ends with.
const AFTER_FINAL = /[\s)"'»”’“‘«›‹」』）\]\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/u;

export function finalMark(text: string): string | null {
  // A text ending in an ASCII letter or digit has no final mark (most do: labels, names, counts).
  const last = text.charCodeAt(text.length - 1);
  if ((last >= 48 && last <= 57) || (last >= 65 && last <= 90) || (last >= 97 && last <= 122)) return null;
  // Walked back from the end: a `[…]+$` pattern retries at every character of a long inner run.
  let end = text.length;
  while (end > 0 && AFTER_FINAL.test(text[end - 1]!)) end--;
  const trimmed = text.slice(0, end);
  for (const [name, pattern] of FINAL) if (pattern.test(trimmed)) return name;
  return null;
}

// Scripts whose sentences usually end without a mark: a source period missing there is expected.
const NO_FINAL_PERIOD = new Set(['th', 'lo', 'km', 'my']);
export const dropsFinalPeriod = (language: string) => NO_FINAL_PERIOD.has(language.split('-')[0]!.toLowerCase());

// One segmenter for the process: creating one costs tens of microseconds, more than most checks.
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
// The only UTF-16 units that can join a neighbour into one grapheme (Unicode UAX #29): marks and
// other Extend characters (GB9), ZWJ and emoji sequences, flags and everything astral (and lone surrogates),
// Hangul jamo (GB6-8), CR of CRLF (GB3), the non-mark SpacingMarks (GB9a) and Prepend characters
// of the BMP (GB9b). A text without any has one grapheme per unit and needs no segmenting, which
// costs tens of microseconds a text (Cyrillic, CJK and most scripts take the fast path).
const JOINS = /[\p{M}\u200c\u200d\ufe00-\ufe0f\ud800-\udfff\u{10000}-\u{10ffff}\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\r\u0e33\u0eb3\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u0d4e\uff9e\uff9f]/u;

// Characters drawn two columns wide (Unicode East Asian Width W and F, emoji left out: an emoji
// counts once, as before): Hangul leading jamo, CJK radicals, symbols and punctuation, Kana,
// Bopomofo, Hangul compatibility jamo, CJK ideographs (BMP and planes 2-3), Hangul syllables,
// CJK compatibility and vertical forms, fullwidth forms (halfwidth Kana, FF61-FF9F, stays 1).
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6f\uff00-\uff60\uffe0-\uffe6\u{1b000}-\u{1b16f}\u{20000}-\u{3fffd}]/u;
const WIDE_START = new RegExp(`^${WIDE.source}`, 'u');

export const hasWideCharacters = (text: string) => WIDE.test(text);

/**
 * The length the length check compares: graphemes (visibleLength), with each one that starts with
 * a wide character (Han, Kana, Hangul, fullwidth forms) counted 2. A CJK character holds what two
 * to four Latin letters hold and takes two columns, so a 10-character Chinese sentence is 20 here
 * and its 54-character German translation is not "five times longer"; text without CJK measures
 * as before.
 */
export function visibleWidth(text: string): number {
  if (!WIDE.test(text)) return visibleLength(text);
  let n = 0;
  if (!JOINS.test(text)) {
    for (const c of text) n += WIDE_START.test(c) ? 2 : 1;
    return n;
  }
  for (const { segment } of graphemes.segment(text)) n += WIDE_START.test(segment) ? 2 : 1;
  return n;
}

/** Graphemes, not UTF-16 units: an emoji or an accented letter counts once. */
export function visibleLength(text: string): number {
  if (!JOINS.test(text)) return text.length;
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}
