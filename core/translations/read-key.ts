import * as v from 'valibot';
import type { LiveBody } from './live-memo.ts';
import { liveRead, type LiveReadDeps } from './live-read.ts';
import { notFound } from '../errors.ts';
import { mayNameGroup, KeyName } from '../validation.ts';
import { useCase } from '../use-case.ts';
import { ReadKeyCommand, type KeyTranslation, type StatusFilter, type TranslationStatus } from './schemas.ts';

export const keyValueNotFound = (language: string, group: string, key: string, filter: StatusFilter) =>
  notFound(
    `No ${filter === 'all' ? '' : `${filter} `}translation for key '${key}' in group '${group}' and language '${language}'`,
  );

/**
 * One live value by full key name, which must belong to the named group; one query. The value is
 * found only through its primary key (key_id, language), never by project (docs/decisions.md).
 */
export const readKey = useCase(ReadKeyCommand, async (deps: LiveReadDeps, input): Promise<LiveBody> => {
  const { projectId, language, group, key, status: filter } = input;
  // Names that could never exist have no value; asking would only risk Postgres refusing them.
  if (!mayNameGroup(group) || !v.is(KeyName, key)) throw keyValueNotFound(language, group, key, filter);
  const { sql } = deps;
  return liveRead<{ value: string | null; status: TranslationStatus | null }>(
    deps,
    projectId,
    `${projectId} key ${language} ${filter} ${group.length} ${group} ${key}`,
    (fresh) => sql`
      select t.value, t.status
      from translation_keys k join translations t on t.key_id = k.id and t.language = ${language}
      where ${fresh} and k.project_id = ${projectId} and k.key = ${key} and k.deleted_at is null
        and k.group_name = ${group} ${filter === 'all' ? sql`` : sql`and t.status = ${filter}`}`,
    ([row]) => {
      if (!row || row.value === null || row.status === null) throw keyValueNotFound(language, group, key, filter);
      const body: KeyTranslation = { key, group, language, value: row.value, status: row.status };
      return JSON.stringify(body);
    },
  );
});
