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

export function finalMark(text: string): string | null {
  const trimmed = text.trimEnd().replace(/[)"'»”’」』）\]]+$/u, '');
  for (const [name, pattern] of FINAL) if (pattern.test(trimmed)) return name;
  return null;
}

// Scripts whose sentences usually end without a mark: a source period missing there is expected.
const NO_FINAL_PERIOD = new Set(['th', 'lo', 'km', 'my']);
export const dropsFinalPeriod = (language: string) => NO_FINAL_PERIOD.has(language.split('-')[0]!.toLowerCase());

// One segmenter for the process: creating one costs tens of microseconds, more than most checks.
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
// Text of only these characters has one grapheme per UTF-16 unit: no segmenting needed.
const SIMPLE = /^[\x20-\x7e\u00a0-\u02ff]*$/;

/** Graphemes, not UTF-16 units: an emoji or an accented letter counts once. */
export function visibleLength(text: string): number {
  if (SIMPLE.test(text)) return text.length;
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}
