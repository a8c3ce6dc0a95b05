// DELETE /v1/tasks/{number}: the task, its key list and its assignments; its keys and values stay.
// Its number stays taken. Recorded as task.deleted.
import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { taskNotFound } from './task-rows.ts';
import { DeleteTaskCommand } from './schemas.ts';

export const deleteTask = useCase(DeleteTaskCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<void> => {
  const { projectId, actor, number } = input;
  await transaction(deps, async (tx) => {
    const [gone] = await tx.sql<{ id: string; name: string; kind: string; language: string; state: string }[]>`
      delete from tasks where project_id = ${projectId} and number = ${number} returning id, name, kind, language, state`;
    if (!gone) throw taskNotFound(number);
    tx.record({ type: 'task.deleted', projectId, actor, entity: { type: 'task', id: gone.id }, before: { number, name: gone.name, kind: gone.kind, language: gone.language, state: gone.state } });
  });
});
