import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { WriteInProject } from '../commands.ts';
import { exactlyOneSelection, KeySelectionFields, selectKeys } from './key-selection.ts';

export const BulkDeleteKeysInput = v.pipe(v.strictObject(KeySelectionFields), exactlyOneSelection());
export const BulkDeleteKeysCommand = v.pipe(v.object({ ...WriteInProject, ...KeySelectionFields }), exactlyOneSelection());

export const BulkDeleted = v.object({ project_id: v.string(), deleted: v.number() });
export type BulkDeleted = v.InferOutput<typeof BulkDeleted>;

/**
 * Soft-deletes many keys at once, as DELETE /v1/keys/{key_id} does one (restorable from the trash):
 * one transaction, one key.deleted event per key, all or nothing.
 */
export const bulkDeleteKeys = useCase(BulkDeleteKeysCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<BulkDeleted> =>
  transaction(deps, async (tx) => {
    const keys = await selectKeys(tx.sql, input.projectId, input);
    if (keys.length > 0) {
      await tx.sql`
        update translation_keys set deleted_at = now(), updated_at = now()
        where id = any(${keys.map((k) => k.id)}::uuid[])`;
    }
    for (const k of keys) {
      tx.record({
        type: 'key.deleted',
        projectId: input.projectId,
        actor: input.actor,
        entity: { type: 'key', id: k.id },
        before: { key: k.key, group_name: k.group_name },
      });
    }
    return { project_id: input.projectId, deleted: keys.length };
  }),
);
