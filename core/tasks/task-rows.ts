// How a task is read: its fields, its assignees, and its progress counted from the values as they
// are now (docs/decisions.md, "Tasks": a key is done when its value says so, never a second flag).
import type postgres from 'postgres';
import type { Sql, TransactionSql } from '../db/client.ts';
import { isoUtc } from '../db/iso-timestamp.ts';
import { notFound } from '../errors.ts';
import { outdatedSql } from '../translations/outdated.ts';
import type { Task, TaskKind, TaskState } from './schemas.ts';
import type { TaskProgressEntry, TaskProgressMemo } from './progress-memo.ts';

type AnySql = Sql | TransactionSql;

export const taskNotFound = (number: number) => notFound(`Task #${number} does not exist in this project`);

/**
 * SQL: key `k`'s value in `language` is done for a task of `kind` (SQL expressions of the caller's
 * statement; `sourceLanguage` the project's). Translate: in review or approved; review: approved;
 * either way not outdated (a source changed since asks for the work again). Both values are
 * reached by primary key from the key: two probes per key, with or without statistics.
 */
export function keyDoneSql(sql: AnySql, kind: postgres.Fragment, language: postgres.Fragment, sourceLanguage: postgres.Fragment): postgres.Fragment {
  return sql`exists (
    select 1 from translations t
      left join translations s on s.key_id = t.key_id and s.language = ${sourceLanguage} and t.language <> ${sourceLanguage}
    where t.key_id = k.id and t.language = ${language} and ${doneRowSql(sql, kind)})`;
}

/**
 * SQL: the joined value `t` (in the task's language) and its source value `s` (null when none, or
 * when `t` is in the source language) make a done key for a task of `kind`: keyDoneSql's rule, for
 * a statement that joins them itself. `t` may be a null row (no value: not done).
 */
export const doneRowSql = (sql: AnySql, kind: postgres.Fragment): postgres.Fragment =>
  sql`(t.status = 'approved' or (${kind} = 'translate' and t.status = 'review'))
      and not (s.key_id is not null and ${outdatedSql(sql, 't', 's')})`;

/** Who made or closed a task, named as comments name their authors (the id kept as text: any actor). */
const personSql = (sql: AnySql, type: string, id: string): postgres.Fragment =>
  sql`case when ${sql.unsafe(type)} is null then null else json_build_object(
        'type', ${sql.unsafe(type)}, 'id', ${sql.unsafe(id)},
        'name', case ${sql.unsafe(type)}
          when 'user' then (select u.email from users u where u.id = ${sql.unsafe(id)}::uuid)
          when 'api_key' then (select a.name from api_keys a where a.id = ${sql.unsafe(id)}::uuid)
        end) end`;

export type TaskRow = Omit<Task, 'created_by' | 'closed_by'> & {
  id: string;
  /** Whether this statement counted the progress (false: the read's known counts stand, see withProgress). */
  progress_counted: boolean;
  progress_stamp: string;
  created_by: Task['created_by'];
  closed_by: Task['closed_by'];
};

/**
 * SQL: what task `ta`'s progress is counted from, besides the values themselves: the project's
 * content version (raised by every write of a value, a key or a language, migration 007), the
 * task (id, kind, language, and updated_at: its keys change only with it, update-task.ts), and the
 * project's source language (which values are outdated). Equal stamps, equal counts.
 */
export const progressStampSql = (sql: AnySql): postgres.Fragment =>
  sql`(select coalesce(sum(c.version), 0) from project_content_versions c where c.project_id = ta.project_id)::text
      || ' ' || ta.id::text || ' ' || ta.kind || ' ' || ta.language || ' ' || coalesce(p.source_language, '')
      || ' ' || floor(extract(epoch from ta.updated_at) * 1000000)::bigint::text`;

/** Counts a read already holds, by task number (core/tasks/progress-memo.ts). */
export type KnownProgress = ReadonlyMap<number, TaskProgressEntry>;

const NOTHING_KNOWN: KnownProgress = new Map();

/**
 * The progress of task `ta` (of project `p`), counted in one pass over its live keys: each key's
 * value and source value joined (the planner may hash them when it has statistics, and probes the
 * primary key twice per key when it has none). Follows `from tasks ta join projects p`. A task
 * whose stamp equals the one `known` holds for its number is not counted (`progress_counted`
 * false, the counts 0): the gate refers to the outer row alone, so Postgres makes it a one-time
 * filter and skips the pass.
 */
export const taskProgressJoin = (sql: AnySql, known: KnownProgress = NOTHING_KNOWN): postgres.Fragment => {
  const numbers = [...known.keys()];
  const stamps = numbers.map((number) => known.get(number)!.stamp);
  return sql`cross join lateral (
    select ${progressStampSql(sql)} as progress_stamp,
           (select k.stamp from unnest(${numbers}::int[], ${stamps}::text[]) as k(number, stamp) where k.number = ta.number) as known_stamp) st
  cross join lateral (
    select st.progress_stamp is distinct from st.known_stamp as progress_counted,
           count(*)::int as keys_total, (count(*) filter (where ${doneRowSql(sql, sql`ta.kind`)}))::int as keys_done
    from task_keys tk
      join translation_keys k on k.id = tk.key_id and k.deleted_at is null
      left join translations t on t.key_id = k.id and t.language = ta.language
      left join translations s on s.key_id = k.id and s.language = p.source_language and ta.language <> p.source_language
    where tk.task_id = ta.id and st.progress_stamp is distinct from st.known_stamp) progress`;
};

/**
 * Rows read with taskProgressJoin given `known`, with their counts: the statement's own, kept in
 * `memo` under the stamp it read, or, for a task it did not count, those `known` held.
 */
export function withProgress<R extends TaskRow>(rows: R[], known: KnownProgress, memo: { set(number: number, entry: TaskProgressEntry): void }): R[] {
  return rows.map((row) => {
    if (row.progress_counted) {
      memo.set(row.number, { stamp: row.progress_stamp, keys_total: row.keys_total, keys_done: row.keys_done });
      return row;
    }
    const held = known.get(row.number)!;
    return { ...row, keys_total: held.keys_total, keys_done: held.keys_done };
  });
}

/** Select list over `ta` (tasks) joined to `p` (its project) and taskProgressJoin. */
export const taskColumns = (sql: AnySql): postgres.Fragment =>
  sql`ta.id, ta.number, ta.name, ta.description, ta.kind, ta.language, ta.state, ta.due_date::text as due_date,
      coalesce((
        select json_agg(json_build_object('user_id', u.id, 'email', u.email) order by u.email)
        from task_assignees a join users u on u.id = a.user_id where a.task_id = ta.id), '[]'::json) as assignees,
      progress.keys_total, progress.keys_done, progress.progress_counted, st.progress_stamp,
      ${isoUtc(sql, 'ta.created_at')} as created_at, ${personSql(sql, 'ta.created_by_type', 'ta.created_by_id')} as created_by,
      ${isoUtc(sql, 'ta.updated_at')} as updated_at,
      case when ta.closed_at is null then null else ${isoUtc(sql, 'ta.closed_at')} end as closed_at,
      ${personSql(sql, 'ta.closed_by_type', 'ta.closed_by_id')} as closed_by`;

export function toTask(row: TaskRow): Task {
  return {
    number: row.number,
    name: row.name,
    description: row.description,
    kind: row.kind as TaskKind,
    language: row.language,
    state: row.state as TaskState,
    due_date: row.due_date,
    assignees: row.assignees,
    keys_total: row.keys_total,
    keys_done: row.keys_done,
    created_at: row.created_at,
    created_by: row.created_by,
    updated_at: row.updated_at,
    closed_at: row.closed_at,
    closed_by: row.closed_by,
  };
}

/**
 * The task of a project by its number, as the API shows it (null when there is none). With `memo`
 * (reads outside a transaction only: a count made inside one may never commit), a count the
 * process holds under the current stamp is used instead of counting again.
 */
export async function readTask(sql: AnySql, projectId: string, number: number, memo?: TaskProgressMemo): Promise<TaskRow | null> {
  const held = memo?.known(projectId).get(number);
  const known: KnownProgress = held ? new Map([[number, held]]) : NOTHING_KNOWN;
  const rows = await sql<TaskRow[]>`
    select ${taskColumns(sql)} from tasks ta join projects p on p.id = ta.project_id ${taskProgressJoin(sql, known)}
    where ta.project_id = ${projectId} and ta.number = ${number}`;
  const [row] = memo ? withProgress(rows, known, { set: (n, entry) => memo.set(projectId, n, entry) }) : rows;
  return row ?? null;
}
