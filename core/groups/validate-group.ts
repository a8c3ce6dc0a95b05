import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { groupExists, groupTaken } from './group-exists.ts';
import { ValidateGroupCommand, type ValidatedGroup } from './schemas.ts';

/** Confirms a name is valid and unused; stores nothing (a group comes to exist with its first key). */
export const validateGroup = useCase(ValidateGroupCommand, async (deps: Pick<Deps, 'sql'>, { projectId, name }): Promise<ValidatedGroup> => {
  if (await groupExists(deps.sql, projectId, name)) throw groupTaken(name);
  return { project_id: projectId, name, created: true };
});
