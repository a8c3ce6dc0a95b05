import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { useCase } from '../use-case.ts';
import { ReadLanguageCommand } from './schemas.ts';
import { envelope, translationsObject } from './translations-json.ts';

export const languageHasNoValues = (language: string) =>
  notFound(`Language '${language}' has no translations in this project`);

/**
 * Every live value of one language, keyed by full key name, in one query: the body, serialized.
 * 404 only when the language has no live values at all; a filter that matches none of them gives
 * count 0. Values of languages no longer registered cannot exist: removing a language deletes them.
 */
export const readLanguage = useCase(ReadLanguageCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<string> => {
  const { projectId, language, status: filter } = input;
  const { sql } = deps;
  const passes = filter === 'all' ? sql`true` : sql`t.status = ${filter}`;
  const [row] = await sql<{ total: number; count: number; translations: string }[]>`
    select count(*)::int as total,
           (count(*) filter (where ${passes}))::int as count,
           ${translationsObject(sql, filter === 'all' ? 'value-status-group' : 'value', passes)} as translations
    from translations t join translation_keys k on k.id = t.key_id
    where t.project_id = ${projectId} and t.language = ${language}
      and k.project_id = ${projectId} and k.deleted_at is null`;
  if (!row || row.total === 0) throw languageHasNoValues(language);
  return envelope({ project_id: projectId, language, status_filter: filter, count: row.count }, row.translations);
});
