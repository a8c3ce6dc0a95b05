import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { keyById } from './by-id.ts';
import { keyNotFound } from './update-key.ts';
import { KeyCommand } from './schemas.ts';

/** Soft delete: the key and its values stop being served; the admin API can restore them. */
export const deleteKey = useCase(KeyCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<void> =>
  transaction(deps, async (tx) => {
    // The project is checked on the row found by primary key (by-id.ts); a key never changes project.
    const [row] = await tx.sql<{ key: string; group_name: string }[]>`
      update translation_keys set deleted_at = now(), updated_at = now()
      where id = (select k.id from ${keyById(tx.sql, input.keyId)} k where k.project_id = ${input.projectId}) and deleted_at is null
      returning key, group_name`;
    if (!row) throw keyNotFound();
    tx.record({ type: 'key.deleted', projectId: input.projectId, actor: input.actor, entity: { type: 'key', id: input.keyId }, before: row });
  }),
);
