// GET /v1/tasks: the project's tasks, newest first, filtered by state, kind, language or assignee,
// a page at a time (the number is the keyset position). Each with its progress as the values are now,
// counted again only for the tasks whose values have changed since this process last counted them
// (core/tasks/progress-memo.ts).
import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { taskColumns, taskProgressJoin, toTask, withProgress, type TaskRow } from './task-rows.ts';
import { ListTasksCommand, type TaskList } from './schemas.ts';

export const TASKS_LIST_LIMIT_DEFAULT = 50;

export const listTasks = useCase(ListTasksCommand, async (deps: Pick<Deps, 'sql' | 'taskProgress'>, input): Promise<TaskList> => {
  const { sql, taskProgress } = deps;
  const known = taskProgress.known(input.projectId);
  const limit = input.limit ?? TASKS_LIST_LIMIT_DEFAULT;
  const rows = await sql<TaskRow[]>`
    select ${taskColumns(sql)} from tasks ta join projects p on p.id = ta.project_id ${taskProgressJoin(sql, known)}
    where ta.project_id = ${input.projectId}
      ${input.state === undefined ? sql`` : sql`and ta.state = ${input.state}`}
      ${input.kind === undefined ? sql`` : sql`and ta.kind = ${input.kind}`}
      ${input.language === undefined ? sql`` : sql`and ta.language = ${input.language}`}
      ${input.assignee === undefined ? sql`` : sql`and exists (
        select 1 from task_assignees a join users u on u.id = a.user_id where a.task_id = ta.id and u.email = ${input.assignee})`}
      ${input.cursor === undefined ? sql`` : sql`and ta.number < ${input.cursor}`}
    order by ta.number desc
    limit ${limit + 1}`;
  const page = withProgress(rows.slice(0, limit), known, { set: (number, entry) => taskProgress.set(input.projectId, number, entry) });
  return { data: page.map(toTask), next_cursor: rows.length > limit ? String(page.at(-1)!.number) : null };
});
