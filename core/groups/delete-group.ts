import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { isGroupName } from '../validation.ts';
import { groupNotFound } from './group-exists.ts';
import { GroupCommand } from './schemas.ts';

/** Soft-deletes every live key of the group at one timestamp (restore-group undoes exactly that). */
export const deleteGroup = useCase(GroupCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<number> => {
  const { projectId, name } = input;
  if (!isGroupName(name)) throw groupNotFound(name);
  return transaction(deps, async (tx) => {
    const [row] = await tx.sql<{ count: number }[]>`
      with deleted as (
        update translation_keys set deleted_at = now(), updated_at = now()
        where project_id = ${projectId} and group_name = ${name} and deleted_at is null
        returning 1)
      select count(*)::int as count from deleted`;
    if (row!.count === 0) throw groupNotFound(name);
    tx.record({ type: 'group.deleted', projectId, actor: input.actor, entity: { type: 'group', id: name }, before: { keys: row!.count } });
    return row!.count;
  });
});
