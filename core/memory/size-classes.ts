// The size classes of translation memory's sources (migrations 020 and 021): a source of c trigrams
// is in every class K of SIZE_CLASSES with c <= K. Kept equal to the expression of
// memory_sources.size_classes in migration 021 (test/memory/size-classes.test.ts reads the column).
export const SIZE_CLASSES = [4, 6, 8, 12, 16, 24, 32, 48, 64] as const;

/**
 * The class a suggestion may narrow its candidates to: pg_trgm's similarity is shared / (asked +
 * source - shared), so a source of more than asked / threshold trigrams can never reach the
 * threshold, and every source that can is in the smallest class at or above that count. Undefined
 * past the largest class: no narrowing.
 */
export function sizeClassFor(askedTrigrams: number, threshold: number): number | undefined {
  // The most trigrams a match can have; the epsilon keeps a quotient that floats just under a whole
  // number (33 / 0.55 = 59.99999999999999) from losing that number.
  const most = Math.floor(askedTrigrams / threshold + 1e-9);
  return SIZE_CLASSES.find((k) => k >= most);
}
