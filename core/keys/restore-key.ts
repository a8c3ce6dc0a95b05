import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { keyById } from './by-id.ts';
import { assertKeyCapacity, lockProject } from '../projects/lock-project.ts';
import { keyExists } from './create-key.ts';
import { KeyCommand, type KeyRecord } from './schemas.ts';

/** Brings a soft-deleted key back with the values it still has (admin API). */
export const restoreKey = useCase(KeyCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<KeyRecord> =>
  transaction(deps, async (tx) => {
    const { projectId, keyId } = input;
    const { plan, limits } = await lockProject(tx.sql, projectId);
    const [key] = await tx.sql<{ key: string }[]>`
      select k.key from ${keyById(tx.sql, keyId)} k where k.project_id = ${projectId} and k.deleted_at is not null`;
    if (!key) throw notFound('Deleted key not found');
    const [taken] = await tx.sql`
      select 1 from translation_keys where project_id = ${projectId} and key = ${key.key} and deleted_at is null`;
    if (taken) throw keyExists(key.key);
    await assertKeyCapacity(tx.sql, projectId, plan, limits.keysPerProject, 1);
    const [row] = await tx.sql<KeyRecord[]>`
      update translation_keys set deleted_at = null, updated_at = now() where id = ${keyId}
      returning id, project_id, key, group_name, description, tags, max_length`;
    tx.record({ type: 'key.restored', projectId, actor: input.actor, entity: { type: 'key', id: keyId }, after: row });
    return row!;
  }),
);
