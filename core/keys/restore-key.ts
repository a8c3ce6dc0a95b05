import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { assertKeyCapacity, lockProject } from '../projects/lock-project.ts';
import { keyExists } from './create-key.ts';
import type { CreatedKey } from './schemas.ts';

/** Brings a soft-deleted key back with the values it still has (admin API). */
export async function restoreKey(deps: Pick<Deps, 'sql'>, projectId: string, keyId: string): Promise<CreatedKey> {
  return deps.sql.begin(async (tx) => {
    const { plan, limits } = await lockProject(tx, projectId);
    const [key] = await tx<{ key: string }[]>`
      select key from translation_keys where id = ${keyId} and project_id = ${projectId} and deleted_at is not null`;
    if (!key) throw notFound('Deleted key not found');
    const [taken] = await tx`
      select 1 from translation_keys where project_id = ${projectId} and key = ${key.key} and deleted_at is null`;
    if (taken) throw keyExists(key.key);
    await assertKeyCapacity(tx, projectId, plan, limits.keysPerProject, 1);
    const [row] = await tx<CreatedKey[]>`
      update translation_keys set deleted_at = null, updated_at = now() where id = ${keyId}
      returning id, project_id, key, group_name, description`;
    return row!;
  });
}
