// A member's open tasks across the projects of their accounts (the portal's "My tasks"): assigned
// to them, soonest due first (those without a date last), then oldest first.
import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { Uuid } from '../validation.ts';
import { taskColumns, taskProgressJoin, toTask, type TaskRow } from './task-rows.ts';
import type { Task } from './schemas.ts';

export const MY_TASKS_MAX = 200;
const MyTasksCommand = v.object({ userId: Uuid });

export type MyTask = Task & { project_id: string; project_name: string };

export const listMyTasks = useCase(MyTasksCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<MyTask[]> => {
  const { sql } = deps;
  // Through the memberships: a task of an account they have left is not theirs to see.
  const rows = await sql<(TaskRow & { project_id: string; project_name: string })[]>`
    select ${taskColumns(sql)}, p.id as project_id, p.name as project_name
    from task_assignees a
      join tasks ta on ta.id = a.task_id and ta.state = 'open'
      join projects p on p.id = ta.project_id
      ${taskProgressJoin(sql)}
      join memberships m on m.account_id = p.account_id and m.user_id = a.user_id
    where a.user_id = ${input.userId}
    order by ta.due_date nulls last, ta.created_at, ta.number
    limit ${MY_TASKS_MAX}`;
  return rows.map((row) => ({ ...toTask(row), project_id: row.project_id, project_name: row.project_name }));
});
