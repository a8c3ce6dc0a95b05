// Fallback chains (issue 16): a project setting mapping a language to the ordered languages whose
// approved values fill its missing keys in built files, e.g. {"de-AT": ["de", "en"]}. A chain is
// the whole list, in order: the builder does not follow de's own chain when filling de-AT, which
// keeps every file's content readable from the setting alone. Still, cycles are refused (de-AT ->
// de and de -> de-AT): whichever way a reader takes the setting, it must not loop.
import * as v from 'valibot';
import type { ValidationIssue } from '../errors.ts';
import { canonicalLanguageCode, LanguageCode } from '../languages/language-code.ts';

/** The longest chain: a language, a macro-language, a lingua franca, and a few more leave room. */
export const MAX_CHAIN_LENGTH = 5;
/** At most one chain per language; bounded so a setting stays a small JSON object. */
export const MAX_CHAINS = 200;

const OBJECT_EXPECTED = 'fallbacks must be an object: language code -> array of language codes';

/**
 * What the record below would hide about the setting's keys: it canonicalizes them (`de-at` and
 * `de-AT` became one chain, the later kept without a word) and skips a `__proto__` key without an
 * issue (and a PATCH replaces the whole setting: every chain was dropped by a 200). Other keys that
 * are not language codes are the record's to refuse, with its message.
 */
function keysProblem(fallbacks: unknown): string | null {
  // Not an object: the check before says so (a pipe runs on after a failed check).
  if (typeof fallbacks !== 'object' || fallbacks === null) return null;
  const seen = new Map<string, string>();
  for (const key of Object.keys(fallbacks)) {
    const code = canonicalLanguageCode(key);
    if (code === null) {
      if (key === '__proto__') return `'__proto__' is not a language code`;
      continue;
    }
    const first = seen.get(code);
    if (first !== undefined) return `'${first}' and '${key}' are one language (${code}): give it one chain`;
    seen.set(code, key);
  }
  return null;
}

export const Fallbacks = v.pipe(
  // An array is an object to a record schema: refused here first.
  v.unknown(),
  v.check((f) => typeof f === 'object' && f !== null && !Array.isArray(f), OBJECT_EXPECTED),
  v.check(
    (f) => keysProblem(f) === null,
    (issue) => keysProblem(issue.input)!,
  ),
  v.record(
    LanguageCode,
    v.pipe(
      v.array(LanguageCode, 'a fallback chain must be an array of language codes'),
      v.minLength(1, 'a fallback chain needs at least one language (omit the language to remove its chain)'),
      v.maxLength(MAX_CHAIN_LENGTH, `a fallback chain has at most ${MAX_CHAIN_LENGTH} languages`),
    ),
    OBJECT_EXPECTED,
  ),
  v.check((f) => Object.keys(f).length <= MAX_CHAINS, `at most ${MAX_CHAINS} languages may have a fallback chain`),
  v.description('Language code -> the ordered languages whose approved values fill its missing keys in built files, e.g. {"de-AT": ["de", "en"]}'),
);
export type Fallbacks = v.InferOutput<typeof Fallbacks>;

/**
 * What is wrong with a setting, given the project's registered languages: a language naming itself
 * or twice in its chain, an unregistered language on either side, a cycle. Each issue's loc is
 * `[...at, language]` (the chain at fault).
 */
export function fallbackIssues(fallbacks: Fallbacks, registered: ReadonlySet<string>, at: (string | number)[] = ['fallbacks']): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const issue = (code: string, msg: string, type: string) => issues.push({ loc: [...at, code], msg, type });
  for (const [code, chain] of Object.entries(fallbacks)) {
    if (!registered.has(code)) issue(code, `Language '${code}' is not registered for this project`, 'language_not_registered');
    for (const other of chain) {
      if (other === code) issue(code, `Language '${code}' cannot fall back to itself`, 'fallback_self');
      else if (!registered.has(other)) issue(code, `Fallback language '${other}' is not registered for this project`, 'language_not_registered');
    }
    if (new Set(chain).size !== chain.length) issue(code, `The fallback chain of '${code}' names a language twice`, 'fallback_duplicate');
  }
  const cycle = findCycle(fallbacks);
  if (cycle) issue(cycle[0]!, `Fallback chains form a cycle: ${cycle.join(' -> ')}`, 'fallback_cycle');
  return issues;
}

/** A cycle among the chains (language -> each language of its chain), as the path that closes it. */
function findCycle(fallbacks: Fallbacks): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (code: string): string[] | null => {
    if (state.get(code) === 'done') return null;
    if (state.get(code) === 'open') return [...path.slice(path.indexOf(code)), code];
    state.set(code, 'open');
    path.push(code);
    for (const next of Object.hasOwn(fallbacks, code) ? fallbacks[code]! : []) {
      if (next === code) continue; // reported as a self reference
      const found = visit(next);
      if (found) return found;
    }
    path.pop();
    state.set(code, 'done');
    return null;
  };
  for (const code of Object.keys(fallbacks).sort()) {
    const found = visit(code);
    if (found) return found;
  }
  return null;
}

/** The setting without `code`: gone as a chain's language and from every chain (empty chains go too). */
export function withoutLanguage(fallbacks: Fallbacks, code: string): Fallbacks {
  const out: Fallbacks = {};
  for (const [language, chain] of Object.entries(fallbacks)) {
    if (language === code) continue;
    const kept = chain.filter((c) => c !== code);
    if (kept.length) out[language] = kept;
  }
  return out;
}
