import type { Deps } from '../deps.ts';
import { conflict, notFound } from '../errors.ts';
import { assertKeyCapacity, lockProject } from '../projects/lock-project.ts';
import type { RestoredGroup } from './schemas.ts';

/**
 * Undoes the group's most recent delete: the keys soft-deleted together at that moment come back
 * with their values. All or nothing: 409 when any of their names is live again meanwhile.
 */
export async function restoreGroup(deps: Pick<Deps, 'sql'>, projectId: string, name: string): Promise<RestoredGroup> {
  return deps.sql.begin(async (tx) => {
    const { plan, limits } = await lockProject(tx, projectId);
    const candidates = await tx<{ id: string; key: string }[]>`
      select id, key from translation_keys
      where project_id = ${projectId} and group_name = ${name} and deleted_at = (
        select max(deleted_at) from translation_keys where project_id = ${projectId} and group_name = ${name})`;
    if (candidates.length === 0) throw notFound(`Group '${name}' has no deleted keys to restore`);
    const taken = await tx<{ key: string }[]>`
      select key from translation_keys
      where project_id = ${projectId} and deleted_at is null and key in ${tx(candidates.map((c) => c.key))}
      order by key`;
    if (taken.length > 0) {
      throw conflict(`Cannot restore group '${name}': key name(s) in use: ${taken.map((t) => t.key).join(', ')}`);
    }
    await assertKeyCapacity(tx, projectId, plan, limits.keysPerProject, candidates.length);
    await tx`
      update translation_keys set deleted_at = null, updated_at = now()
      where id in ${tx(candidates.map((c) => c.id))}`;
    return { project_id: projectId, group_name: name, keys_restored: candidates.length };
  });
}
