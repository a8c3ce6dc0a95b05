import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { mayNameGroup } from '../validation.ts';
import { groupNotFound } from './group-exists.ts';
import { GroupCommand } from './schemas.ts';
import { KEYS_LISTED } from '../webhooks/listed-keys.ts';

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
    const [row] = await tx.sql<{ count: number; key_ids: string[] | null }[]>`
      with locked as materialized (
        select id from translation_keys
        where project_id = ${projectId} and group_name = ${name} and deleted_at is null
        order by id for no key update
      ), deleted as (
        update translation_keys k set deleted_at = now(), updated_at = now()
        from locked where k.id = locked.id
        returning k.id)
      select count(*)::int as count, (select array_agg(id::text) from (select id from deleted limit ${KEYS_LISTED}) l) as key_ids from deleted`;
    if (row!.count === 0) throw groupNotFound(name);
    // key_ids: the first KEYS_LISTED of its keys, for webhooks' translations.changed (core/webhooks/listed-keys.ts).
    tx.record({ type: 'group.deleted', projectId, actor: input.actor, entity: { type: 'group', id: name }, before: { keys: row!.count, key_ids: row!.key_ids ?? [] } });
    return row!.count;
  });
});
