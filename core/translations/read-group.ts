import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { isGroupName } from '../validation.ts';
import type { GroupEntry, GroupTranslations, StatusFilter, TranslationStatus } from './schemas.ts';

type Row = { key: string; value: string; status: TranslationStatus };

export const groupHasNoValues = (language: string, group: string, filter: StatusFilter) =>
  notFound(
    `No ${filter === 'all' ? '' : `${filter} `}translations for group '${group}' in language '${language}'`,
  );

/** The live values of one group in one language, in one query; 404 when none match the filter. */
export async function readGroup(
  deps: Pick<Deps, 'sql'>,
  projectId: string,
  language: string,
  group: string,
  filter: StatusFilter,
): Promise<GroupTranslations> {
  // A name that could never be a group has no values; no need to ask the database.
  if (!isGroupName(group)) throw groupHasNoValues(language, group, filter);
  const { sql } = deps;
  const rows = await sql<Row[]>`
    select k.key, t.value, t.status
    from translation_keys k join translations t on t.key_id = k.id and t.language = ${language}
    where k.project_id = ${projectId} and k.group_name = ${group} and k.deleted_at is null
      and t.project_id = ${projectId}
      ${filter === 'all' ? sql`` : sql`and t.status = ${filter}`}
    order by k.key collate "C"`;
  if (rows.length === 0) throw groupHasNoValues(language, group, filter);

  const translations: Record<string, string | GroupEntry> = Object.create(null);
  for (const row of rows) translations[row.key] = filter === 'all' ? { value: row.value, status: row.status } : row.value;
  return { project_id: projectId, language, group, status_filter: filter, count: rows.length, translations };
}
