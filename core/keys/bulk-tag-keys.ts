import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import { validationError } from '../errors.ts';
import { useCase } from '../use-case.ts';
import { WriteInProject } from '../commands.ts';
import { exactlyOneSelection, KeySelectionFields, selectKeys } from './key-selection.ts';
import { joinTags, normalTags, TagChanges, TAGS_PER_KEY_MAX } from './tags.ts';

const BulkTagFields = {
  ...KeySelectionFields,
  /** Tags every selected key gets (kept where it has them). */
  add: v.optional(TagChanges, []),
  /** Tags taken off every selected key (no matter where it has none). */
  remove: v.optional(TagChanges, []),
};
const someTag = <T extends { add: string[]; remove: string[] }>() =>
  v.check<T, string>((b) => b.add.length + b.remove.length > 0, 'name a tag to add or remove');
const notBoth = <T extends { add: string[]; remove: string[] }>() =>
  v.check<T, string>((b) => !b.add.some((t) => b.remove.includes(t)), 'a tag cannot be both added and removed');

export const BulkTagInput = v.pipe(v.strictObject(BulkTagFields), exactlyOneSelection(), someTag(), notBoth());
export const BulkTagCommand = v.pipe(v.object({ ...WriteInProject, ...BulkTagFields }), exactlyOneSelection(), someTag(), notBoth());

export const BulkTagged = v.object({
  project_id: v.string(),
  /** Keys whose tags changed (keys that already had them as asked are left, and not counted). */
  changed: v.number(),
});
export type BulkTagged = v.InferOutput<typeof BulkTagged>;

/**
 * Adds and removes tags on many keys at once (the editor's selection, a filter): one transaction, the
 * keys locked as selected, one key.tagged per key whose tags changed (its tags before and after). A key that would pass TAGS_PER_KEY_MAX refuses the whole action.
 */
export const bulkTagKeys = useCase(BulkTagCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<BulkTagged> =>
  transaction(deps, async (tx) => {
    const keys = await selectKeys(tx.sql, input.projectId, input);
    if (keys.length === 0) return { project_id: input.projectId, changed: 0 };
    const rows = await tx.sql<{ id: string; key: string; tags: string[] }[]>`
      select id, key, tags from translation_keys where id = any(${keys.map((k) => k.id)}::uuid[]) order by id`;
    const removed = new Set(input.remove);
    const changes = rows
      .map((row) => ({ ...row, after: normalTags([...row.tags.filter((t) => !removed.has(t)), ...input.add]) }))
      .filter((row) => row.after.length !== row.tags.length || row.after.some((t, i) => t !== row.tags[i]));
    const over = changes.filter((row) => row.after.length > TAGS_PER_KEY_MAX);
    if (over.length > 0) {
      const shown = over.slice(0, 5).map((row) => row.key).join(', ') + (over.length > 5 ? ` and ${over.length - 5} more` : '');
      throw validationError([
        { loc: ['body', 'add'], msg: `a key has at most ${TAGS_PER_KEY_MAX} tags: ${shown} would have more`, type: 'too_many' },
      ]);
    }
    if (changes.length > 0) {
      await tx.sql`
        update translation_keys k set tags = c.tags, updated_at = now()
        from unnest(${changes.map((c) => c.id)}::uuid[], ${changes.map((c) => joinTags(c.after))}::text[]) as c0 (id, tag_list),
          lateral (select string_to_array(c0.tag_list, chr(31)) as tags) c
        where k.id = c0.id`;
    }
    for (const row of changes) {
      tx.record({
        type: 'key.tagged',
        projectId: input.projectId,
        actor: input.actor,
        entity: { type: 'key', id: row.id },
        before: { tags: row.tags },
        after: { key: row.key, tags: row.after },
      });
    }
    return { project_id: input.projectId, changed: changes.length };
  }),
);
