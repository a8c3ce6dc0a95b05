import type { Deps } from '../deps.ts';
import { lockProject } from '../projects/lock-project.ts';
import { groupExists, groupNotFound, groupTaken } from './group-exists.ts';
import type { RenamedGroup } from './schemas.ts';

/** Moves every live key of a group to the new name in one statement, so readers see all or none. */
export async function renameGroup(
  deps: Pick<Deps, 'sql'>,
  projectId: string,
  oldName: string,
  newName: string,
): Promise<RenamedGroup> {
  return deps.sql.begin(async (tx) => {
    await lockProject(tx, projectId);
    if (!(await groupExists(tx, projectId, oldName))) throw groupNotFound(oldName);
    if (await groupExists(tx, projectId, newName)) throw groupTaken(newName);
    const rows = await tx`
      update translation_keys set group_name = ${newName}, updated_at = now()
      where project_id = ${projectId} and group_name = ${oldName} and deleted_at is null
      returning id`;
    return { project_id: projectId, old_name: oldName, new_name: newName, keys_updated: rows.length };
  });
}
