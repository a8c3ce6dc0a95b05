// The edges of a sentence: leading and trailing whitespace, the final punctuation mark, and a length
// far from the source's. Each is a habit of translators' tools (trimming, dropping a final period)
// that shows in an app as a glued word, a question without its mark, or a label overflowing a button.

export function edgeWhitespace(text: string): { leading: boolean; trailing: boolean } {
  return { leading: /^\s/u.test(text), trailing: /\s$/u.test(text) };
}

// Final marks by meaning: a Japanese 。 ends a sentence as a period does; a Spanish question still
// ends with ?; Arabic has its own question mark.
const FINAL: ReadonlyArray<[string, RegExp]> = [
  ['ellipsis', /(?:…|\.\.\.)$/u],
  ['period', /[.。．।۔።]$/u],
  ['question', /[?？؟;]$/u],
  ['exclamation', /[!！]$/u],
  ['colon', /[:：]$/u],
];

// What may follow a sentence's final mark: whitespace, closing quotes and brackets of any language
// (German „…“ closes with “, Danish »…« with «, Swiss ‹…› with ›), and the invisible bidi marks
// (LRM, RLM, ALM, embeddings and isolates) an RTL value often ends with.
const AFTER_FINAL = /[\s)"'»”’“‘«›‹」』）\]\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/u;

export function finalMark(text: string): string | null {
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

/** Graphemes, not UTF-16 units: an emoji or an accented letter counts once. */
export function visibleLength(text: string): number {
  if (!JOINS.test(text)) return text.length;
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}
