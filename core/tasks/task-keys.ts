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

/** SQL: key `k` is in an open task of the same kind and language (another lead's work already handed out). */
const taskedSql = (sql: TransactionSql, work: Work) => sql`exists (
  select 1 from task_keys tk join tasks ot on ot.id = tk.task_id
  where tk.key_id = k.id and ot.project_id = ${work.projectId} and ot.state = 'open' and ot.kind = ${work.kind} and ot.language = ${work.language})`;

/**
 * The keys a new task takes: `key_ids` or the filter's matches, without those already done unless
 * `includeDone`, and without those already in an open task of the same kind and language unless
 * `includeTasked` (a CI job run after every push must not hand the same keys out twice); and how
 * many were left out for each reason (a key both done and tasked counts as done).
 */
export async function selectTaskKeys(
  sql: TransactionSql,
  work: Work,
  source: { keyIds: string[] } | { filter: KeyFilter },
  options: { includeDone: boolean; includeTasked: boolean },
): Promise<{ keyIds: string[]; leftOutDone: number; leftOutTasked: number }> {
  const matched =
    'keyIds' in source
      ? sql`k.id = any(${await liveKeyIds(sql, work.projectId, source.keyIds, ['body', 'key_ids'])}::uuid[])`
      : sql`true ${keyFilterSql(sql, work.projectId, source.filter)}`;
  const live = sql`k.project_id = ${work.projectId} and k.deleted_at is null and ${matched}`;
  const notDone = options.includeDone ? sql`` : sql`and not ${doneSql(sql, work)}`;
  const rows = await sql<{ id: string }[]>`
    select k.id from translation_keys k
    where ${live} ${notDone} ${options.includeTasked ? sql`` : sql`and not ${taskedSql(sql, work)}`}
    order by k.key
    limit ${TASK_KEYS_MAX + 1}`;
  const [left] = await sql<{ done: number; tasked: number }[]>`
    select ${options.includeDone ? sql`0` : sql`count(*) filter (where ${doneSql(sql, work)})`}::int as done,
           ${options.includeTasked ? sql`0` : sql`count(*) filter (where ${taskedSql(sql, work)} ${notDone})`}::int as tasked
    from translation_keys k where ${live}`;
  const leftOutDone = left!.done;
  const leftOutTasked = left!.tasked;
  const loc = 'keyIds' in source ? ['body', 'key_ids'] : ['body', 'filter'];
  if (rows.length > TASK_KEYS_MAX) {
    throw validationError([{ loc, msg: `more than ${TASK_KEYS_MAX.toLocaleString('en-US')} keys match: a task has at most ${TASK_KEYS_MAX.toLocaleString('en-US')} (split the work into several tasks, by group or tag)`, type: 'value_error' }]);
  }
  if (rows.length === 0) {
    const reasons = [
      leftOutDone > 0 ? `${leftOutDone} already done in ${work.language} (include_done takes them)` : null,
      leftOutTasked > 0 ? `${leftOutTasked} in open ${work.kind} tasks of ${work.language} (include_tasked takes them)` : null,
    ].filter(Boolean);
    const why = reasons.length === 0 ? 'no key matches' : `every matching key is left out: ${reasons.join('; ')}`;
    throw validationError([{ loc, msg: `${why}: a task needs at least one key`, type: 'value_error' }]);
  }
  return { keyIds: rows.map((r) => r.id), leftOutDone, leftOutTasked };
}
