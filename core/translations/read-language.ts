import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import type { LanguageEntry, LanguageTranslations, StatusFilter, TranslationStatus } from './schemas.ts';

type Row = { key: string | null; group_name: string; value: string; status: TranslationStatus };

export const languageHasNoValues = (language: string) =>
  notFound(`Language '${language}' has no translations in this project`);

/**
 * Every live value of one language, keyed by full key name, in one query. 404 only when the
 * language has no live values at all; a filter that matches none of them gives count 0. Values of
 * languages no longer registered cannot exist: removing a language deletes them (foreign key).
 */
export async function readLanguage(
  deps: Pick<Deps, 'sql'>,
  projectId: string,
  language: string,
  filter: StatusFilter,
): Promise<LanguageTranslations> {
  const { sql } = deps;
  const live = sql`
    from translations t join translation_keys k on k.id = t.key_id
    where t.project_id = ${projectId} and t.language = ${language}
      and k.project_id = ${projectId} and k.deleted_at is null`;
  // With a filter, one row with a null key is appended when the language has any live value, so
  // "empty but exists" and "does not exist" are told apart without a second round trip. That probe
  // is a LIMIT 1 ordered by status rather than EXISTS: Postgres strips ORDER BY from EXISTS and,
  // assuming rows are spread evenly, may then seq-scan every project's values to find the first
  // one; the ordering keeps it on translations_project_language_idx, one entry and one key lookup.
  const rows =
    filter === 'all'
      ? await sql<Row[]>`select k.key, k.group_name, t.value, t.status ${live} order by k.key collate "C"`
      : await sql<Row[]>`
          select * from (
            select k.key, k.group_name, t.value, t.status ${live} and t.status = ${filter}
            union all
            (select null, null, null, null ${live} order by t.status limit 1)
          ) r
          order by r.key collate "C" nulls first`;

  const translations: Record<string, string | LanguageEntry> = Object.create(null);
  let count = 0;
  let exists = false;
  for (const row of rows) {
    exists = true;
    if (row.key === null) continue;
    translations[row.key] = filter === 'all' ? { value: row.value, status: row.status, group: row.group_name } : row.value;
    count++;
  }
  if (!exists) throw languageHasNoValues(language);
  return { project_id: projectId, language, status_filter: filter, count, translations };
}
