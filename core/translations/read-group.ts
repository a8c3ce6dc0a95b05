import type { LiveBody } from './live-memo.ts';
import { liveRead, type LiveReadDeps } from './live-read.ts';
import { notFound } from '../errors.ts';
import { mayNameGroup } from '../validation.ts';
import { useCase } from '../use-case.ts';
import { ReadGroupCommand, type StatusFilter } from './schemas.ts';
import { envelope, translationsObject } from './translations-json.ts';

export const groupHasNoValues = (language: string, group: string, filter: StatusFilter) =>
  notFound(
    `No ${filter === 'all' ? '' : `${filter} `}translations for group '${group}' in language '${language}'`,
  );

/**
 * The live values of one group in one language, in one query: the body, serialized; 404 when none
 * match. The group's keys are found by (project_id, group_name) and their values only through the
 * values' primary key (key_id, language): no `t.project_id` condition, which would let an
 * unanalyzed planner scan the language's values once per key (docs/decisions.md).
 */
export const readGroup = useCase(ReadGroupCommand, async (deps: LiveReadDeps, input): Promise<LiveBody> => {
  const { projectId, language, group, status: filter } = input;
  // A name that could never be a group has no values; no need to ask the database.
  if (!mayNameGroup(group)) throw groupHasNoValues(language, group, filter);
  const { sql } = deps;
  const passes = filter === 'all' ? sql`true` : sql`t.status = ${filter}`;
  return liveRead<{ count: number; translations: string }>(
    deps,
    projectId,
    `${projectId} group ${language} ${filter} ${group}`,
    (fresh) => sql`
      select count(*)::int as count, ${translationsObject(sql, filter === 'all' ? 'value-status' : 'value', sql`true`)} as translations
      from translation_keys k join translations t on t.key_id = k.id and t.language = ${language}
      where ${fresh} and k.project_id = ${projectId} and k.group_name = ${group} and k.deleted_at is null and ${passes}`,
    ([row]) => {
      if (!row || row.count === 0) throw groupHasNoValues(language, group, filter);
      return envelope({ project_id: projectId, language, group, status_filter: filter, count: row.count }, row.translations);
    },
  );
});
