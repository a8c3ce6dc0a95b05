import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { isGroupName } from '../validation.ts';
import { useCase } from '../use-case.ts';
import { ReadGroupCommand, type StatusFilter } from './schemas.ts';
import { envelope, translationsObject } from './translations-json.ts';

export const groupHasNoValues = (language: string, group: string, filter: StatusFilter) =>
  notFound(
    `No ${filter === 'all' ? '' : `${filter} `}translations for group '${group}' in language '${language}'`,
  );

/** The live values of one group in one language, in one query: the body, serialized; 404 when none match. */
export const readGroup = useCase(ReadGroupCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<string> => {
  const { projectId, language, group, status: filter } = input;
  // A name that could never be a group has no values; no need to ask the database.
  if (!isGroupName(group)) throw groupHasNoValues(language, group, filter);
  const { sql } = deps;
  const passes = filter === 'all' ? sql`true` : sql`t.status = ${filter}`;
  const [row] = await sql<{ count: number; translations: string }[]>`
    select count(*)::int as count, ${translationsObject(sql, filter === 'all' ? 'value-status' : 'value', sql`true`)} as translations
    from translation_keys k join translations t on t.key_id = k.id and t.language = ${language}
    where k.project_id = ${projectId} and k.group_name = ${group} and k.deleted_at is null
      and t.project_id = ${projectId} and ${passes}`;
  if (!row || row.count === 0) throw groupHasNoValues(language, group, filter);
  return envelope({ project_id: projectId, language, group, status_filter: filter, count: row.count }, row.translations);
});
