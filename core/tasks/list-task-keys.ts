// GET /v1/tasks/{number}/keys: a task's live keys in name order, each with its value's status in
// the task's language and whether it is done, a page at a time (the keys listing's cursor).
import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { validationError } from '../errors.ts';
import { decodeCursor, encodeCursor } from '../keys/key-cursor.ts';
import { outdatedSql } from '../translations/outdated.ts';
import { doneRowSql, taskNotFound } from './task-rows.ts';
import { TaskKeysCommand, type TaskKeyList } from './schemas.ts';

export const TASK_KEYS_LIMIT_DEFAULT = 100;

export const listTaskKeys = useCase(TaskKeysCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<TaskKeyList> => {
  const { sql } = deps;
  const [task] = await sql<{ id: string; kind: string; language: string; source_language: string }[]>`
    select ta.id, ta.kind, ta.language, p.source_language from tasks ta join projects p on p.id = ta.project_id
    where ta.project_id = ${input.projectId} and ta.number = ${input.number}`;
  if (!task) throw taskNotFound(input.number);
  const after = input.cursor === undefined ? null : decodeCursor(input.cursor);
  if (input.cursor !== undefined && after === null) {
    throw validationError([{ loc: ['query', 'cursor'], msg: 'cursor is not valid: pass next_cursor from a previous page unchanged', type: 'value_error' }]);
  }
  const limit = input.limit ?? TASK_KEYS_LIMIT_DEFAULT;
  // The values joined below: done is read from them, with no second probe per key.
  const done = sql`coalesce(${doneRowSql(sql, sql`${task.kind}::text`)}, false)`;
  const rows = await sql<{ key_id: string; key: string; group_name: string; status: 'draft' | 'review' | 'approved' | null; outdated: boolean; done: boolean }[]>`
    select k.id as key_id, k.key, k.group_name, t.status,
           coalesce(${outdatedSql(sql, 't', 's')} and t.language <> ${task.source_language}, false) as outdated,
           ${done} as done
    from task_keys tk
      join translation_keys k on k.id = tk.key_id and k.deleted_at is null
      left join translations t on t.key_id = k.id and t.language = ${task.language}
      left join translations s on s.key_id = k.id and s.language = ${task.source_language} and t.language <> ${task.source_language}
    where tk.task_id = ${task.id}
      ${after === null ? sql`` : sql`and k.key > ${after.key}`}
      ${input.done === undefined ? sql`` : input.done ? sql`and ${done}` : sql`and not ${done}`}
    order by k.key
    limit ${limit + 1}`;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { data: page, next_cursor: rows.length > limit && last ? encodeCursor({ key: last.key, id: last.key_id }) : null };
});
