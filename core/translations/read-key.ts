import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { isGroupName, KeyName } from '../validation.ts';
import { useCase } from '../use-case.ts';
import { ReadKeyCommand, type KeyTranslation, type StatusFilter, type TranslationStatus } from './schemas.ts';

export const keyValueNotFound = (language: string, group: string, key: string, filter: StatusFilter) =>
  notFound(
    `No ${filter === 'all' ? '' : `${filter} `}translation for key '${key}' in group '${group}' and language '${language}'`,
  );

/** One live value by full key name, which must belong to the named group; one query. */
export const readKey = useCase(ReadKeyCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<KeyTranslation> => {
  const { projectId, language, group, key, status: filter } = input;
  // Names that could never exist have no value; asking would only risk Postgres refusing them.
  if (!isGroupName(group) || !v.is(KeyName, key)) throw keyValueNotFound(language, group, key, filter);
  const { sql } = deps;
  const [row] = await sql<{ value: string; status: TranslationStatus }[]>`
    select t.value, t.status
    from translation_keys k join translations t on t.key_id = k.id and t.language = ${language}
    where k.project_id = ${projectId} and k.key = ${key} and k.deleted_at is null
      and k.group_name = ${group} and t.project_id = ${projectId}
      ${filter === 'all' ? sql`` : sql`and t.status = ${filter}`}`;
  if (!row) throw keyValueNotFound(language, group, key, filter);
  return { key, group, language, value: row.value, status: row.status };
});
