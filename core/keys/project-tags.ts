// A tag across the whole project (docs/decisions.md, "Renaming and deleting a tag"): renamed on
// every key that has it, or taken off every one. The bulk tag action works on a selection of at most
// 1,000 keys; a tag a team outgrew ("release-2.3" once shipped, "mobil" misspelt) is on however many
// keys carry it, so these are one statement over all of them, in one transaction, with one
// key.tagged per key changed, as a bulk tagging records it. Tags are not content: no rebuild, no
// translations.changed webhook.
import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import { notFound, validationError } from '../errors.ts';
import { useCase } from '../use-case.ts';
import { WriteInProject } from '../commands.ts';
import type { TransactionSql } from '../db/client.ts';
import type { Actor } from '../actor.ts';
import { nfc } from '../validation.ts';
import { joinTags, mayNameTag, normalTags, Tag } from './tags.ts';

export const RenameTagInput = v.strictObject({ name: Tag });
/** `tag`: the path's text; one that could never be a tag is on no key (404), as a group's name in a path. */
export const RenameTagCommand = v.object({ ...WriteInProject, tag: v.string(), name: Tag });
export const DeleteTagCommand = v.object({ ...WriteInProject, tag: v.string() });

export const TagRenamed = v.object({
  project_id: v.string(),
  /** The tag's old and new names. */
  from: v.string(),
  to: v.string(),
  /** Live keys whose tags changed (keys in the trash are renamed too, and not counted). */
  changed: v.number(),
});
export type TagRenamed = v.InferOutput<typeof TagRenamed>;

export const TagDeleted = v.object({
  project_id: v.string(),
  tag: v.string(),
  /** Live keys it was taken off (keys in the trash lose it too, and are not counted). */
  changed: v.number(),
});
export type TagDeleted = v.InferOutput<typeof TagDeleted>;

export const tagNotFound = (tag: string) => notFound(`No key of this project has the tag '${tag}'`);

/** The tag a path names, as a stored tag is written (NFC, trimmed); 404 when it could never be one. */
function namedTag(text: string): string {
  const tag = nfc(text).trim();
  if (!mayNameTag(tag)) throw tagNotFound(tag);
  return tag;
}

export const renameTag = useCase(RenameTagCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<TagRenamed> => {
  const tag = namedTag(input.tag);
  if (input.name === tag) {
    throw validationError([{ loc: ['body', 'name'], msg: `the tag is already called '${tag}'`, type: 'value_error' }]);
  }
  const changed = await retag(deps, input.projectId, input.actor, tag, (tags) => normalTags([...tags.filter((t) => t !== tag), input.name]));
  return { project_id: input.projectId, from: tag, to: input.name, changed };
});

export const deleteTag = useCase(DeleteTagCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<TagDeleted> => {
  const tag = namedTag(input.tag);
  const changed = await retag(deps, input.projectId, input.actor, tag, (tags) => tags.filter((t) => t !== tag));
  return { project_id: input.projectId, tag, changed };
});

/**
 * Every key of the project with `tag` (live or in the trash, so that a restored key does not bring
 * the old name back), locked in id order as every bulk change locks keys, given `next` of its tags.
 * A tag no live key has is a 404: the project's tag list does not show it. Answers the live keys changed.
 */
async function retag(deps: Pick<Deps, 'sql' | 'events' | 'tx'>, projectId: string, actor: Actor, tag: string, next: (tags: string[]) => string[]): Promise<number> {
  return transaction(deps, async (tx) => {
    const rows = await keysWithTag(tx.sql, projectId, tag);
    const live = rows.filter((r) => !r.deleted);
    if (live.length === 0) throw tagNotFound(tag);
    const changes = rows.map((row) => ({ ...row, after: next(row.tags) }));
    await tx.sql`
      update translation_keys k set tags = string_to_array(c.tag_list, chr(31)), updated_at = now()
      from unnest(${changes.map((c) => c.id)}::uuid[], ${changes.map((c) => joinTags(c.after))}::text[]) as c (id, tag_list)
      where k.id = c.id`;
    for (const row of changes) {
      tx.record({ type: 'key.tagged', projectId, actor, entity: { type: 'key', id: row.id }, before: { tags: row.tags }, after: { key: row.key, tags: row.after } });
    }
    return live.length;
  });
}

/**
 * The keys with the tag, locked. The containment is checked on the project's keys as the tag filter
 * does (no index on tags: migration 031), and again on the locked rows: a key whose tags changed
 * while this waited for its lock is taken as it is now. FOR NO KEY UPDATE, as every multi-key write
 * locks keys: FOR UPDATE would also block the lock a new value's foreign-key check takes on its key,
 * and an import holding one of these keys while creating a value on another deadlocked with it
 * (test/tags/project-tags-races.test.ts).
 */
async function keysWithTag(sql: TransactionSql, projectId: string, tag: string) {
  return sql<{ id: string; key: string; tags: string[]; deleted: boolean }[]>`
    select id, key, tags, deleted_at is not null as deleted from translation_keys
    where project_id = ${projectId} and tags @> array[${tag}]::text[]
    order by id for no key update`;
}
