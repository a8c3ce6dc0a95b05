// GET /v1/tasks/{number}: one task of the project, with its progress as the values are now (counted
// again only when they have changed since this process last counted it: core/tasks/progress-memo.ts).
import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { readTask, taskNotFound, toTask } from './task-rows.ts';
import { TaskCommand, type Task } from './schemas.ts';

export const getTask = useCase(TaskCommand, async (deps: Pick<Deps, 'sql' | 'taskProgress'>, input): Promise<Task> => {
  const row = await readTask(deps.sql, input.projectId, input.number, deps.taskProgress);
  if (!row) throw taskNotFound(input.number);
  return toTask(row);
});
