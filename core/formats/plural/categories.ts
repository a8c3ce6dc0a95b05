// The plural categories of a language, from the runtime's CLDR data (Intl.PluralRules), in CLDR
// order. A language ICU does not know gets the root rules (`other` only) rather than the host's
// default locale, which Intl would silently substitute; exports must not depend on the host.

export const CATEGORY_ORDER = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
export type PluralCategory = (typeof CATEGORY_ORDER)[number];

const cache = new Map<string, Intl.PluralRules | null>();

/** Rules for a language, or null when the runtime has none for it. */
export function pluralRules(language: string, type: Intl.PluralRuleType = 'cardinal'): Intl.PluralRules | null {
  const id = `${type}:${language}`;
  let rules = cache.get(id);
  if (rules === undefined) {
    try {
      rules = Intl.PluralRules.supportedLocalesOf([language]).length > 0 ? new Intl.PluralRules(language, { type }) : null;
    } catch {
      rules = null;
    }
    cache.set(id, rules);
  }
  return rules;
}

export function pluralCategories(language: string, type: Intl.PluralRuleType = 'cardinal'): PluralCategory[] {
  const known = pluralRules(language, type)?.resolvedOptions().pluralCategories ?? ['other'];
  return CATEGORY_ORDER.filter((c) => known.includes(c));
}

export const isCategory = (s: string): s is PluralCategory => (CATEGORY_ORDER as readonly string[]).includes(s);

/**
 * The order selectors are written in: exact values (`=0`, `=1`) ascending, then categories in CLDR
 * order, then anything else by code point.
 */
export function compareSelectors(a: string, b: string): number {
  const rank = (s: string) => (s.startsWith('=') ? -1 : isCategory(s) ? CATEGORY_ORDER.indexOf(s) : CATEGORY_ORDER.length);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === -1) return Number(a.slice(1)) - Number(b.slice(1));
  return a < b ? -1 : a > b ? 1 : 0;
}
