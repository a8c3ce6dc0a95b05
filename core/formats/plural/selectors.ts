// Matching a format's plural keys to ICU selectors. Most formats name CLDR categories (zero, one,
// two, few, many, other). Three of them (i18next, Rails, stringsdict) also use their `zero` form for
// a count of exactly 0 in languages that have no `zero` category (English "No files"): that is ICU's
// `=0`, not the category. In languages that do have it (ar, lv, cy) `zero` is the category.
import { isCategory, pluralCategories } from './categories.ts';

const hasZeroCategory = (language: string) => pluralCategories(language).includes('zero');

/** The ICU selector of a native plural key (a category name). */
export function selectorFromNative(name: string, language: string, zeroMeansExactZero: boolean): string {
  return name === 'zero' && zeroMeansExactZero && !hasZeroCategory(language) ? '=0' : name;
}

/** The native plural key of an ICU selector, or null when the format has none for it. */
export function selectorToNative(selector: string, language: string, zeroMeansExactZero: boolean): string | null {
  const exactZero = zeroMeansExactZero && !hasZeroCategory(language);
  if (selector === '=0') return exactZero ? 'zero' : null;
  if (!isCategory(selector)) return null;
  return selector === 'zero' && exactZero ? null : selector;
}
