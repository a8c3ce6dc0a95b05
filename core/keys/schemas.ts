import * as v from 'valibot';
import { GroupName, KeyName, storableText, Uuid } from '../validation.ts';
import { InProject, WriteInProject } from '../commands.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { KeyFilterFields } from './key-filter.ts';
import { Cursor } from './key-cursor.ts';
import { Tags } from './tags.ts';

export const DEFAULT_GROUP = 'Default';

const Description = v.nullable(storableText('description', 1_000));

/** A key's character limit (docs/decisions.md, "Character limits"): 1 to 10,000, or null for none. */
export const MAX_LENGTH_LIMIT = 10_000;
const MAX_LENGTH_RULE = 'max_length must be an integer from 1 to 10000, or null';
const MaxLength = v.nullable(
  v.pipe(v.number(MAX_LENGTH_RULE), v.integer(MAX_LENGTH_RULE), v.minValue(1, MAX_LENGTH_RULE), v.maxValue(MAX_LENGTH_LIMIT, MAX_LENGTH_RULE)),
);

export const CreateKeyInput = v.strictObject({
  key: KeyName,
  group_name: v.optional(GroupName, DEFAULT_GROUP),
  description: v.optional(Description, null),
  /** The key's tags (core/keys/tags.ts); none by default. */
  tags: v.optional(Tags, []),
  /** The most characters a value of the key should have (quality check max_length); none by default. */
  max_length: v.optional(MaxLength, null),
});
export type CreateKeyInput = v.InferOutput<typeof CreateKeyInput>;

/** `tags`, when given, is the key's whole new set (an empty list removes them all). */
const UpdateKeyFields = { group_name: v.optional(GroupName), description: v.optional(Description), tags: v.optional(Tags), max_length: v.optional(MaxLength) };
const someChange = <T extends { group_name?: unknown; description?: unknown; tags?: unknown; max_length?: unknown }>() =>
  v.check<T, string>(
    (b) => b.group_name !== undefined || b.description !== undefined || b.tags !== undefined || b.max_length !== undefined,
    'give group_name, description, tags and/or max_length',
  );
export const UpdateKeyInput = v.pipe(v.strictObject(UpdateKeyFields), someChange());
export type UpdateKeyInput = v.InferOutput<typeof UpdateKeyInput>;

export const LIST_LIMIT_MAX = 500;
export const LIST_LIMIT_DEFAULT = 100;
const Limit = v.pipe(v.number(), v.integer('limit must be an integer'), v.minValue(1, 'limit must be 1 to 500'), v.maxValue(LIST_LIMIT_MAX, 'limit must be 1 to 500'));

/**
 * GET /v1/keys's query. Unlike the other query strings (which tolerate cache busters), this one
 * refuses a parameter it does not know with a 422 naming it: a misspelt filter (?serach=) that
 * silently listed every key would be taken for an answer, and a bulk action over it could follow.
 */
export const ListKeysQuery = v.strictObject({
  ...KeyFilterFields,
  limit: v.optional(
    v.pipe(
      v.string('limit must be given once'),
      v.regex(/^\d{1,4}$/, 'limit must be an integer from 1 to 500'),
      v.transform(Number),
      Limit,
    ),
  ),
  cursor: v.optional(Cursor),
});

// Use-case inputs: the HTTP body's fields plus the project and, for writes, the actor.
export const CreateKeyCommand = v.object({ ...WriteInProject, ...CreateKeyInput.entries });
export const UpdateKeyCommand = v.pipe(v.object({ ...WriteInProject, keyId: Uuid, ...UpdateKeyFields }), someChange());
/** One key, by id, for reading. */
export const GetKeyCommand = v.object({ ...InProject, keyId: Uuid });
/** Delete and restore: one key, by id. */
export const KeyCommand = v.object({ ...WriteInProject, keyId: Uuid });
/**
 * The listing: a filter (a group filter that could never name a group matches no key, not a
 * validation error), and a page when limit or cursor is given; neither keeps the spec's whole list.
 */
export const ListKeysCommand = v.object({
  ...InProject,
  ...KeyFilterFields,
  /** The editor's shown languages, for its status filter (the API's is `language`). */
  statusLanguages: v.optional(v.pipe(v.array(LanguageCode), v.maxLength(50))),
  limit: v.optional(Limit),
  cursor: v.optional(Cursor),
});

/** A key as created or restored. */
export const KeyRecord = v.object({
  id: Uuid,
  project_id: Uuid,
  key: v.string(),
  group_name: v.string(),
  description: v.nullable(v.string()),
  tags: v.array(v.string()),
  max_length: v.nullable(v.number()),
});
export type KeyRecord = v.InferOutput<typeof KeyRecord>;

export const KeyItem = v.object({
  id: Uuid,
  key: v.string(),
  group_name: v.string(),
  description: v.nullable(v.string()),
  tags: v.array(v.string()),
  max_length: v.nullable(v.number()),
  created_at: v.pipe(v.string(), v.isoTimestamp()),
  updated_at: v.pipe(v.string(), v.isoTimestamp()),
});
export type KeyItem = v.InferOutput<typeof KeyItem>;

export const KeyList = v.object({
  project_id: Uuid,
  keys: v.array(KeyItem),
  count: v.number(),
  /** Only on a page (limit or cursor asked): the cursor of the next page, null on the last one. */
  next_cursor: v.optional(v.nullable(v.string())),
});
export type KeyList = v.InferOutput<typeof KeyList>;

export const UpdatedKey = v.object({ id: Uuid, project_id: Uuid, updated: v.literal(true), group_name: v.string(), tags: v.array(v.string()), max_length: v.nullable(v.number()) });
export type UpdatedKey = v.InferOutput<typeof UpdatedKey>;
