// The keys a task is given: named by id (each a live key of the project, 422 at its place otherwise)
// or matched by the keys filter (core/keys/key-filter.ts), the keys already done left out unless asked.
import type { TransactionSql } from '../db/client.ts';
import { validationError } from '../errors.ts';
import { keyFilterSql, type KeyFilter } from '../keys/key-filter.ts';
import { keyDoneSql } from './task-rows.ts';
import { TASK_KEYS_MAX, type TaskKind } from './schemas.ts';

type Work = { projectId: string; kind: TaskKind; language: string };

const doneSql = (sql: TransactionSql, work: Work) =>
  keyDoneSql(sql, sql`${work.kind}::text`, sql`${work.language}::text`, sql`(select source_language from projects where id = ${work.projectId})`);

/** The live keys of the project among `ids`, in their order; a 422 at each id that is not one. */
export async function liveKeyIds(sql: TransactionSql, projectId: string, ids: string[], loc: (string | number)[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await sql<{ id: string }[]>`
    select k.id from translation_keys k where k.project_id = ${projectId} and k.deleted_at is null and k.id = any(${ids}::uuid[])`;
  const live = new Set(rows.map((r) => r.id));
  const issues = ids.flatMap((id, index) => (live.has(id) ? [] : [{ loc: [...loc, index], msg: `${id} is not a key of this project`, type: 'value_error' }]));
  if (issues.length > 0) throw validationError(issues.slice(0, 100));
  return ids;
}

/**
 * The keys a new task takes: `key_ids` or the filter's matches, without those already done unless
 * `includeDone`; and how many were left out as done.
 */
export async function selectTaskKeys(
  sql: TransactionSql,
  work: Work,
  source: { keyIds: string[] } | { filter: KeyFilter },
  includeDone: boolean,
): Promise<{ keyIds: string[]; leftOutDone: number }> {
  const matched =
    'keyIds' in source
      ? sql`k.id = any(${await liveKeyIds(sql, work.projectId, source.keyIds, ['body', 'key_ids'])}::uuid[])`
      : sql`true ${keyFilterSql(sql, work.projectId, source.filter)}`;
  const rows = await sql<{ id: string }[]>`
    select k.id from translation_keys k
    where k.project_id = ${work.projectId} and k.deleted_at is null and ${matched}
      ${includeDone ? sql`` : sql`and not ${doneSql(sql, work)}`}
    order by k.key
    limit ${TASK_KEYS_MAX + 1}`;
  const [left] = includeDone
    ? [{ n: 0 }]
    : await sql<{ n: number }[]>`
        select count(*)::int as n from translation_keys k
        where k.project_id = ${work.projectId} and k.deleted_at is null and ${matched} and ${doneSql(sql, work)}`;
  const leftOutDone = left!.n;
  const loc = 'keyIds' in source ? ['body', 'key_ids'] : ['body', 'filter'];
  if (rows.length > TASK_KEYS_MAX) {
    throw validationError([{ loc, msg: `more than ${TASK_KEYS_MAX.toLocaleString('en-US')} keys match: a task has at most ${TASK_KEYS_MAX.toLocaleString('en-US')} (split the work into several tasks, by group or tag)`, type: 'value_error' }]);
  }
  if (rows.length === 0) {
    const why = leftOutDone === 0 ? 'no key matches' : `all ${leftOutDone} matching keys are already done in ${work.language} (include_done takes them)`;
    throw validationError([{ loc, msg: `${why}: a task needs at least one key`, type: 'value_error' }]);
  }
  return { keyIds: rows.map((r) => r.id), leftOutDone };
}
