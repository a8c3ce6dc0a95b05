import type { Deps } from '../deps.ts';
import { groupNotFound } from './group-exists.ts';

/** Soft-deletes every live key of the group at one timestamp (restore-group undoes exactly that). */
export async function deleteGroup(deps: Pick<Deps, 'sql'>, projectId: string, name: string): Promise<number> {
  const rows = await deps.sql`
    update translation_keys set deleted_at = now(), updated_at = now()
    where project_id = ${projectId} and group_name = ${name} and deleted_at is null
    returning id`;
  if (rows.length === 0) throw groupNotFound(name);
  return rows.length;
}
