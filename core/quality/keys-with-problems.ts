// The editor's "has problems" filter: keys whose value in one language has at least one quality
// warning. The checks are JavaScript (check-translation.ts), so this cannot be a WHERE clause: the
// project's keys are walked in the listing's order (the same filters, core/keys/list-keys.ts) in
// chunks, each chunk's values in the language and in the source language are read in one query
// (core/translations/values-of-keys.ts), and the values are checked here. A page stops at `limit`
// matches or after `maxScan` keys, whichever comes first, and hands back the listing's cursor of
// the last key it looked at, so the next page resumes exactly there: no key twice, none skipped,
// and no request ever reads more than `maxScan` keys (docs/portal.md has the measured cost).
import type { Deps } from '../deps.ts';
import { listKeys } from '../keys/list-keys.ts';
import { encodeCursor } from '../keys/key-cursor.ts';
import type { KeyFilter } from '../keys/key-filter.ts';
import type { KeyItem } from '../keys/schemas.ts';
import { valuesOfKeys } from '../translations/values-of-keys.ts';
import { warningsOf, type QualityWarning } from './check-translation.ts';
import { glossaryFinder } from '../glossary/terms-in-texts.ts';
import { readForbiddenWords } from '../glossary/forbidden-words.ts';

/** Keys read per query (the listing's largest page, and values-of-keys' largest batch). */
export const PROBLEM_SCAN_CHUNK = 500;
/** Keys one page looks at, at most: the bound on one request's cost. */
export const PROBLEM_SCAN_MAX = 2_000;

export type KeysWithProblemsInput = Omit<KeyFilter, 'language'> & {
  projectId: string;
  /** The language whose values are checked (also the listing's `language` filter: a missing value has no warning). */
  language: string;
  /** The project's source language (projects.source_language). */
  sourceLanguage: string;
  /** Widens the status filter to these languages, as the editor's listing does. */
  statusLanguages?: string[] | undefined;
  /** The listing cursor to resume from (next_cursor of a previous page, or of the listing). */
  cursor?: string | undefined;
  limit: number;
  chunk?: number | undefined;
  maxScan?: number | undefined;
};

export type KeyWithProblems = Pick<KeyItem, 'id' | 'key' | 'group_name' | 'description' | 'tags' | 'max_length'> & { warnings: QualityWarning[] };

export type KeysWithProblems = {
  keys: KeyWithProblems[];
  /** Where the next page resumes; null when the scan reached the end of the project's keys. */
  next_cursor: string | null;
  /** Keys looked at for this page (those with a value in the language). */
  scanned: number;
  /** True when the page stopped at maxScan keys before finding `limit` matches (more may follow). */
  bounded: boolean;
};

export async function keysWithProblems(deps: Pick<Deps, 'sql'>, input: KeysWithProblemsInput): Promise<KeysWithProblems> {
  const chunk = input.chunk ?? PROBLEM_SCAN_CHUNK;
  const maxScan = input.maxScan ?? PROBLEM_SCAN_MAX;
  const { projectId, language, sourceLanguage } = input;
  const languages = language === sourceLanguage ? [language] : [language, sourceLanguage];
  const found: KeyWithProblems[] = [];
  let cursor = input.cursor;
  let scanned = 0;
  // The glossary once per page, indexed (only translations are checked against its agreed words;
  // forbidden words in every language).
  const [findTerms, forbidden] = await Promise.all([language === sourceLanguage ? null : glossaryFinder(deps.sql, projectId), readForbiddenWords(deps.sql, projectId, sourceLanguage)]);
  for (;;) {
    const page = await listKeys(deps, {
      projectId,
      search: input.search,
      group: input.group,
      tag: input.tag,
      status: input.status,
      // Only keys with a value in the language, in SQL: a key without one has nothing to check.
      language,
      ...(input.statusLanguages !== undefined ? { statusLanguages: input.statusLanguages } : {}),
      missing: input.missing,
      // Every other filter the editor combines with "Has problems in" (an older version dropped
      // these two, so "outdated in de" and "has problems in de" listed problems of current values too).
      outdated: input.outdated,
      open_comments: input.open_comments,
      task: input.task,
      // Never read more than the bound, even in the last chunk.
      limit: Math.min(chunk, maxScan - scanned),
      cursor,
    });
    const values = await valuesOfKeys(deps, { projectId, keyIds: page.keys.map((k) => k.id), languages });
    for (const k of page.keys) {
      scanned++;
      const value = values[k.id]?.[language];
      if (!value) continue;
      const source = values[k.id]?.[sourceLanguage]?.value ?? null;
      const terms = findTerms && source !== null ? findTerms(source) : undefined;
      const warnings = warningsOf({ text: value.value, language, source, sourceLanguage, maxLength: k.max_length, terms, forbidden });
      if (warnings.length === 0) continue;
      found.push({ id: k.id, key: k.key, group_name: k.group_name, description: k.description, tags: k.tags, max_length: k.max_length, warnings });
      // One match more than the page: proof that a next page has something, resumed after the page's last key.
      if (found.length > input.limit) {
        const last = found[input.limit - 1]!;
        return { keys: found.slice(0, input.limit), next_cursor: encodeCursor(last), scanned, bounded: false };
      }
    }
    if (!page.next_cursor) {
      // The end of the keys: a page of exactly `limit` matches is the last.
      return { keys: found, next_cursor: null, scanned, bounded: false };
    }
    if (scanned >= maxScan) {
      // Bounded: resume after the last key looked at. The matches so far (at most `limit`) are this page.
      return { keys: found, next_cursor: page.next_cursor, scanned, bounded: true };
    }
    cursor = page.next_cursor;
  }
}
