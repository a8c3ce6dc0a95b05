import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import { isKeyAndGroupTooLong, keyAndGroupTooLong } from '../db/errors.ts';
import { useCase } from '../use-case.ts';
import { mayNameGroup } from '../validation.ts';
import { lockProject } from '../projects/lock-project.ts';
import { groupExists, groupNotFound, groupTaken } from './group-exists.ts';
import { RenameGroupCommand, type RenamedGroup } from './schemas.ts';
import { KEYS_LISTED } from '../webhooks/listed-keys.ts';

/**
 * Moves every live key of a group to the new name in one statement, so readers see all or none. The
 * keys are locked in id order first, as in delete-group.ts: the order every multi-key write takes.
 */
export const renameGroup = useCase(RenameGroupCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<RenamedGroup> => {
  const { projectId, name, newName } = input;
  if (!mayNameGroup(name)) throw groupNotFound(name);
  return transaction(deps, async (tx) => {
    await lockProject(tx.sql, projectId);
    if (!(await groupExists(tx.sql, projectId, name))) throw groupNotFound(name);
    if (await groupExists(tx.sql, projectId, newName)) throw groupTaken(newName);
    const [row] = await tx.sql<{ count: number; key_ids: string[] | null }[]>`
      with locked as materialized (
        select id from translation_keys
        where project_id = ${projectId} and group_name = ${name} and deleted_at is null
        order by id for no key update
      ), moved as (
        update translation_keys k set group_name = ${newName}, updated_at = now()
        from locked where k.id = locked.id
        returning k.id)
      select count(*)::int as count, (select array_agg(id::text) from (select id from moved limit ${KEYS_LISTED}) l) as key_ids from moved`.catch((error: unknown) => {
      throw isKeyAndGroupTooLong(error) ? keyAndGroupTooLong(['body', 'new_name']) : error;
    });
    const keysUpdated = row!.count;
    // Its keys were deleted while it waited for them: the group is gone, as a later rename would find.
    if (keysUpdated === 0) throw groupNotFound(name);
    tx.record({
      type: 'group.renamed',
      projectId,
      actor: input.actor,
      entity: { type: 'group', id: newName },
      before: { name },
      // key_ids: the first KEYS_LISTED of its keys, for webhooks' translations.changed (core/webhooks/listed-keys.ts).
      after: { name: newName, keys: keysUpdated, key_ids: row!.key_ids ?? [] },
    });
    return { project_id: projectId, old_name: name, new_name: newName, keys_updated: keysUpdated };
  });
});
