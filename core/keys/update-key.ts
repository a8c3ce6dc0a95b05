import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { isKeyAndGroupTooLong, keyAndGroupTooLong } from '../db/errors.ts';
import { useCase } from '../use-case.ts';
import { keyById } from './by-id.ts';
import { UpdateKeyCommand, type UpdatedKey } from './schemas.ts';

export const keyNotFound = () => notFound('Key not found');

type KeyFields = { group_name: string; description: string | null; tags: string[] };

export const updateKey = useCase(UpdateKeyCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<UpdatedKey> =>
  transaction(deps, async (tx) => {
    const { projectId, keyId } = input;
    // The project is checked on the row found by primary key (core/keys/by-id.ts); a key never
    // changes project, while deleted_at is judged again on the row as locked.
    const [before] = await tx.sql<KeyFields[]>`
      select group_name, description, tags from translation_keys
      where id = (select k.id from ${keyById(tx.sql, keyId)} k where k.project_id = ${projectId}) and deleted_at is null for update`;
    if (!before) throw keyNotFound();
    const [after] = await tx.sql<KeyFields[]>`
      update translation_keys set
        group_name = ${input.group_name ?? before.group_name},
        description = ${input.description === undefined ? before.description : input.description},
        tags = ${input.tags ?? before.tags}::text[],
        updated_at = now()
      where id = ${keyId}
      returning group_name, description, tags`.catch((error: unknown) => {
      throw isKeyAndGroupTooLong(error) ? keyAndGroupTooLong(['body', 'group_name']) : error;
    });
    tx.record({ type: 'key.updated', projectId, actor: input.actor, entity: { type: 'key', id: keyId }, before, after });
    return { id: keyId, project_id: projectId, updated: true, group_name: after!.group_name, tags: after!.tags };
  }),
);
