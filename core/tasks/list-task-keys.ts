// GET /v1/tasks/{number}/keys: a task's live keys in name order, each with its value's status in
// the task's language and whether it is done, a page at a time (the keys listing's cursor). A page
// this process read before is served again while the task's stamp has not moved (progress-memo.ts).
import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { validationError } from '../errors.ts';
import { decodeCursor, encodeCursor } from '../keys/key-cursor.ts';
import { outdatedSql } from '../translations/outdated.ts';
import { doneRowSql, progressStampSql, taskNotFound } from './task-rows.ts';
import { TaskKeysCommand, type TaskKeyList } from './schemas.ts';

export const TASK_KEYS_LIMIT_DEFAULT = 100;

export const listTaskKeys = useCase(TaskKeysCommand, async (deps: Pick<Deps, 'sql' | 'taskProgress'>, input): Promise<TaskKeyList> => {
  const { sql, taskProgress } = deps;
  const [task] = await sql<{ id: string }[]>`select ta.id from tasks ta where ta.project_id = ${input.projectId} and ta.number = ${input.number}`;
  if (!task) throw taskNotFound(input.number);
  const after = input.cursor === undefined ? null : decodeCursor(input.cursor);
  if (input.cursor !== undefined && after === null) {
    throw validationError([{ loc: ['query', 'cursor'], msg: 'cursor is not valid: pass next_cursor from a previous page unchanged', type: 'value_error' }]);
  }
  const limit = input.limit ?? TASK_KEYS_LIMIT_DEFAULT;
  // The page this process holds for these parameters, if any, and its stamp (progress-memo.ts).
  const memoKey = `${input.projectId} ${input.number} ${input.done ?? 'all'} ${limit} ${input.cursor ?? ''}`;
  const held = taskProgress.page(memoKey);
  // The values joined below: done is read from them, with no second probe per key.
  const done = sql`coalesce(${doneRowSql(sql, sql`st.kind`)}, false)`;
  // One statement: the task's stamp, and the page gated on it having moved since the page held
  // was read (a one-time filter: an unchanged task costs the stamp alone). The task's language,
  // kind and the source language are read here too, so that the page and its stamp agree.
  const rows = await sql<({ stamp: string } & ({ key_id: string; key: string; group_name: string; status: 'draft' | 'review' | 'approved' | null; outdated: boolean; done: boolean } | { key_id: null }))[]>`
    select st.stamp, x.*
    from (select ${progressStampSql(sql)} as stamp, ta.kind, ta.language, p.source_language
          from tasks ta join projects p on p.id = ta.project_id where ta.id = ${task.id}) st
    left join lateral (
      select k.id as key_id, k.key, k.group_name, t.status,
             coalesce(${outdatedSql(sql, 't', 's')} and t.language <> st.source_language, false) as outdated,
             ${done} as done
      from task_keys tk
        join translation_keys k on k.id = tk.key_id and k.deleted_at is null
        left join translations t on t.key_id = k.id and t.language = st.language
        left join translations s on s.key_id = k.id and s.language = st.source_language and t.language <> st.source_language
      where tk.task_id = ${task.id} and st.stamp is distinct from ${held?.stamp ?? null}::text
        ${after === null ? sql`` : sql`and k.key > ${after.key}`}
        ${input.done === undefined ? sql`` : input.done ? sql`and ${done}` : sql`and not ${done}`}
      order by k.key
      limit ${limit + 1}) x on true`;
  // The task deleted between the two statements.
  if (rows.length === 0) throw taskNotFound(input.number);
  const stamp = rows[0]!.stamp;
  if (held && held.stamp === stamp) return held.page;
  const found = rows.flatMap(({ stamp: _, ...row }) => (row.key_id === null ? [] : [row]));
  const page = found.slice(0, limit);
  const last = page.at(-1);
  const list: TaskKeyList = { data: page, next_cursor: found.length > limit && last ? encodeCursor({ key: last.key, id: last.key_id }) : null };
  taskProgress.setPage(memoKey, { stamp, page: list });
  return list;
});
