import type { Deps } from '../deps.ts';
import { groupExists, groupTaken } from './group-exists.ts';
import type { ValidatedGroup } from './schemas.ts';

/** Confirms a name is valid and unused; stores nothing (a group comes to exist with its first key). */
export async function validateGroup(deps: Pick<Deps, 'sql'>, projectId: string, name: string): Promise<ValidatedGroup> {
  if (await groupExists(deps.sql, projectId, name)) throw groupTaken(name);
  return { project_id: projectId, name, created: true };
}
