import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import type { Project, UpdateProjectInput } from './schemas.ts';

export async function updateProject(deps: Pick<Deps, 'sql' | 'apiKeys'>, projectId: string, input: UpdateProjectInput): Promise<Project> {
  const [row] = await deps.sql<Project[]>`
    update projects set auto_rebuild = ${input.auto_rebuild} where id = ${projectId}
    returning id, account_id, name, auto_rebuild`;
  if (!row) throw notFound('Project not found');
  // Cached principals carry auto_rebuild: make the change visible at once in this process.
  deps.apiKeys.evictProject(projectId);
  return row;
}
