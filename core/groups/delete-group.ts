import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { mayNameGroup } from '../validation.ts';
import { groupNotFound } from './group-exists.ts';
import { GroupCommand } from './schemas.ts';

/**
 * Soft-deletes every live key of the group at one timestamp (restore-group undoes exactly that).
 * The keys are locked in id order first, the order bulk actions lock theirs (core/keys/key-selection.ts):
 * in the update's own order (the plan's) a bulk action over some of them could hold one key and wait
 * for the next while this held that one, a deadlock (test/keys/lock-order.test.ts).
 */
export const deleteGroup = useCase(GroupCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<number> => {
  const { projectId, name } = input;
  if (!mayNameGroup(name)) throw groupNotFound(name);
  return transaction(deps, async (tx) => {
    const [row] = await tx.sql<{ count: number }[]>`
      with locked as materialized (
        select id from translation_keys
        where project_id = ${projectId} and group_name = ${name} and deleted_at is null
        order by id for no key update
      ), deleted as (
        update translation_keys k set deleted_at = now(), updated_at = now()
        from locked where k.id = locked.id
        returning 1)
      select count(*)::int as count from deleted`;
    if (row!.count === 0) throw groupNotFound(name);
    tx.record({ type: 'group.deleted', projectId, actor: input.actor, entity: { type: 'group', id: name }, before: { keys: row!.count } });
    return row!.count;
  });
});
