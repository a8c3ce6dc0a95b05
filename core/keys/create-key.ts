import type { Deps } from '../deps.ts';
import { conflict } from '../errors.ts';
import { assertKeyCapacity, lockProject } from '../projects/lock-project.ts';
import type { CreatedKey, CreateKeyInput } from './schemas.ts';

export const keyExists = (key: string) => conflict(`A key named '${key}' already exists in this project`);

export async function createKey(deps: Pick<Deps, 'sql'>, projectId: string, input: CreateKeyInput): Promise<CreatedKey> {
  return deps.sql.begin(async (tx) => {
    const { plan, limits } = await lockProject(tx, projectId);
    const [taken] = await tx`
      select 1 from translation_keys where project_id = ${projectId} and key = ${input.key} and deleted_at is null`;
    if (taken) throw keyExists(input.key);
    await assertKeyCapacity(tx, projectId, plan, limits.keysPerProject, 1);
    const [row] = await tx<CreatedKey[]>`
      insert into translation_keys (project_id, key, group_name, description)
      values (${projectId}, ${input.key}, ${input.group_name}, ${input.description})
      returning id, project_id, key, group_name, description`;
    return row!;
  });
}
