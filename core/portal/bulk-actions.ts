// The editor's "select many" actions, each one transaction: change the status of the selected keys'
// values in some languages (one translation.written event per value changed, as a single write
// records), or delete the selected keys (through deleteKey, composed). All or nothing.
import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { WriteInProject } from '../commands.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { Uuid } from '../validation.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { TranslationStatus } from '../translations/schemas.ts';
import { deleteKey } from '../keys/delete-key.ts';

const Selection = v.pipe(v.array(Uuid), v.minLength(1, 'select at least one key'), v.maxLength(500, 'select at most 500 keys at once'));

export const SetStatusesCommand = v.object({
  ...WriteInProject,
  keyIds: Selection,
  languages: v.pipe(v.array(LanguageCode), v.minLength(1, 'choose at least one language'), v.maxLength(50)),
  status: TranslationStatus,
  /** Leave approved values alone (a translator's "send to review" must not un-approve anything). */
  skipApproved: v.optional(v.boolean(), false),
});

export const setStatuses = useCase(SetStatusesCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<{ changed: number }> =>
  transaction(deps, async (tx) => {
    const rows = await tx.sql<{ key_id: string; language: string; value: string; before_status: TranslationStatus }[]>`
      with target as (
        select t.key_id, t.language, t.status as before_status
        from translations t join translation_keys k on k.id = t.key_id and k.deleted_at is null
        where t.project_id = ${input.projectId} and k.project_id = ${input.projectId}
          and t.key_id = any(${input.keyIds}::uuid[]) and t.language = any(${input.languages})
          and t.status <> ${input.status}
          ${input.skipApproved ? tx.sql`and t.status <> 'approved'` : tx.sql``}
        for update of t
      )
      update translations t set status = ${input.status}, updated_at = now()
      from target where t.key_id = target.key_id and t.language = target.language
      returning t.key_id, t.language, t.value, target.before_status`;
    for (const r of rows) {
      tx.record({
        type: 'translation.written',
        projectId: input.projectId,
        actor: input.actor,
        entity: { type: 'translation', id: `${r.key_id}/${r.language}` },
        before: { value: r.value, status: r.before_status },
        after: { value: r.value, status: input.status },
      });
    }
    return { changed: rows.length };
  }),
);

export const DeleteKeysCommand = v.object({ ...WriteInProject, keyIds: Selection });

export const deleteKeys = useCase(DeleteKeysCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<{ deleted: number }> =>
  transaction(deps, async (tx) => {
    for (const keyId of new Set(input.keyIds)) await deleteKey({ ...deps, tx }, { projectId: input.projectId, keyId, actor: input.actor });
    return { deleted: new Set(input.keyIds).size };
  }),
);
