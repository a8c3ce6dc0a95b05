import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { isKeyAndGroupTooLong, keyAndGroupTooLong } from '../db/errors.ts';
import { useCase } from '../use-case.ts';
import { keyById } from './by-id.ts';
import { UpdateKeyCommand, type UpdatedKey } from './schemas.ts';

export const keyNotFound = () => notFound('Key not found');

type KeyFields = { group_name: string; description: string | null; tags: string[]; max_length: number | null };

export const updateKey = useCase(UpdateKeyCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<UpdatedKey> =>
  transaction(deps, async (tx) => {
    const { projectId, keyId } = input;
    // The project is checked on the row found by primary key (core/keys/by-id.ts); a key never
    // changes project, while deleted_at is judged again on the row as locked.
    const [row] = await tx.sql<(KeyFields & { key: string })[]>`
      select key, group_name, description, tags, max_length from translation_keys
      where id = (select k.id from ${keyById(tx.sql, keyId)} k where k.project_id = ${projectId}) and deleted_at is null for update`;
    if (!row) throw keyNotFound();
    const { key, ...before } = row;
    const next: KeyFields = {
      group_name: input.group_name ?? before.group_name,
      description: input.description === undefined ? before.description : input.description,
      tags: input.tags ?? before.tags,
      max_length: input.max_length === undefined ? before.max_length : input.max_length,
    };
    const sameTags = next.tags.length === before.tags.length && next.tags.every((t, i) => t === before.tags[i]);
    // A character limit is the key's, as its description: a change is key.updated (Activity, webhooks).
    const sameFields = next.group_name === before.group_name && next.description === before.description && next.max_length === before.max_length;
    // Nothing to change: nothing written, nothing recorded (as a PUT of the same value).
    if (sameFields && sameTags) return { id: keyId, project_id: projectId, updated: true, group_name: before.group_name, tags: before.tags, max_length: before.max_length };
    const [after] = await tx.sql<KeyFields[]>`
      update translation_keys set
        group_name = ${next.group_name},
        description = ${next.description},
        tags = ${next.tags}::text[],
        max_length = ${next.max_length},
        updated_at = now()
      where id = ${keyId}
      returning group_name, description, tags, max_length`.catch((error: unknown) => {
      throw isKeyAndGroupTooLong(error) ? keyAndGroupTooLong(['body', 'group_name']) : error;
    });
    // Tags alone are not content (nothing served carries them): key.tagged, as a bulk tagging records it.
    if (sameFields) tx.record({ type: 'key.tagged', projectId, actor: input.actor, entity: { type: 'key', id: keyId }, before: { tags: before.tags }, after: { key, tags: after!.tags } });
    else tx.record({ type: 'key.updated', projectId, actor: input.actor, entity: { type: 'key', id: keyId }, before, after });
    return { id: keyId, project_id: projectId, updated: true, group_name: after!.group_name, tags: after!.tags, max_length: after!.max_length };
  }),
);
