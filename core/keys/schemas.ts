import * as v from 'valibot';
import { GroupName, KeyName, storableText, Uuid } from '../validation.ts';
import { InProject, WriteInProject } from '../commands.ts';

export const DEFAULT_GROUP = 'Default';

const Description = v.nullable(storableText('description', 1_000));

export const CreateKeyInput = v.strictObject({
  key: KeyName,
  group_name: v.optional(GroupName, DEFAULT_GROUP),
  description: v.optional(Description, null),
});
export type CreateKeyInput = v.InferOutput<typeof CreateKeyInput>;

const UpdateKeyFields = { group_name: v.optional(GroupName), description: v.optional(Description) };
const someChange = <T extends { group_name?: unknown; description?: unknown }>() =>
  v.check<T, string>((b) => b.group_name !== undefined || b.description !== undefined, 'give group_name and/or description');
export const UpdateKeyInput = v.pipe(v.strictObject(UpdateKeyFields), someChange());
export type UpdateKeyInput = v.InferOutput<typeof UpdateKeyInput>;

// Query strings tolerate unknown parameters (cache busters, tracing); only known ones are checked.
export const ListKeysQuery = v.object({ group: v.optional(v.string('group must be given once')) });

// Use-case inputs: the HTTP body's fields plus the project and, for writes, the actor.
export const CreateKeyCommand = v.object({ ...WriteInProject, ...CreateKeyInput.entries });
export const UpdateKeyCommand = v.pipe(v.object({ ...WriteInProject, keyId: Uuid, ...UpdateKeyFields }), someChange());
/** Delete and restore: one key, by id. */
export const KeyCommand = v.object({ ...WriteInProject, keyId: Uuid });
/** A group filter that could never name a group matches no key (not a validation error). */
export const ListKeysCommand = v.object({ ...InProject, group: v.optional(v.string()) });

/** A key as created or restored. */
export const KeyRecord = v.object({
  id: Uuid,
  project_id: Uuid,
  key: v.string(),
  group_name: v.string(),
  description: v.nullable(v.string()),
});
export type KeyRecord = v.InferOutput<typeof KeyRecord>;

export const KeyItem = v.object({
  id: Uuid,
  key: v.string(),
  group_name: v.string(),
  description: v.nullable(v.string()),
  created_at: v.pipe(v.string(), v.isoTimestamp()),
  updated_at: v.pipe(v.string(), v.isoTimestamp()),
});
export type KeyItem = v.InferOutput<typeof KeyItem>;

export const KeyList = v.object({ project_id: Uuid, keys: v.array(KeyItem), count: v.number() });
export type KeyList = v.InferOutput<typeof KeyList>;

export const UpdatedKey = v.object({ id: Uuid, project_id: Uuid, updated: v.literal(true), group_name: v.string() });
export type UpdatedKey = v.InferOutput<typeof UpdatedKey>;
