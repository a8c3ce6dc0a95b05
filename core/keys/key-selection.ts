// What a bulk action acts on: a list of key ids, or a filter (the listing's). Resolved inside the
// action's transaction, the keys locked in id order (two bulk actions over overlapping keys queue
// instead of deadlocking), so that what is checked is what is changed.
//
// FOR NO KEY UPDATE, not FOR UPDATE: it excludes other bulk actions and key updates all the same,
// but not the foreign-key checks (FOR KEY SHARE of the key) of values written meanwhile. Under FOR
// UPDATE an import that had written one of the selected keys' values waited on the key for its
// other value's check, while the bulk action waited on that value: a deadlock, a 500
// (test/files/import-races.test.ts).
import * as v from 'valibot';
import type { TransactionSql } from '../db/client.ts';
import { notFound, validationError } from '../errors.ts';
import { Uuid } from '../validation.ts';
import { KeyFilter, keyFilterSql } from './key-filter.ts';

/** The most keys one bulk action may touch: one transaction stays short, its events readable. */
export const BULK_MAX_KEYS = 1_000;

export const KeySelectionFields = {
  key_ids: v.optional(
    v.pipe(
      v.array(Uuid, 'key_ids must be a list of key ids'),
      v.minLength(1, 'key_ids must name at least one key'),
      v.maxLength(BULK_MAX_KEYS, `key_ids may name at most ${BULK_MAX_KEYS} keys`),
    ),
  ),
  filter: v.optional(KeyFilter),
} as const;

export const exactlyOneSelection = <T extends { key_ids?: unknown; filter?: unknown }>() =>
  v.check<T, string>((b) => (b.key_ids === undefined) !== (b.filter === undefined), 'give either key_ids or filter');

export type KeySelection = { key_ids?: string[] | undefined; filter?: KeyFilter | undefined };
export type SelectedKey = { id: string; key: string; group_name: string };

/**
 * The live keys of the project a selection names, locked. Every id must be a live key of this
 * project (404 naming the others, and nothing changes); a filter may match none, but not more than
 * BULK_MAX_KEYS (422: narrow it, or page through the listing and send key_ids).
 */
export async function selectKeys(sql: TransactionSql, projectId: string, selection: KeySelection): Promise<SelectedKey[]> {
  if (selection.key_ids !== undefined) {
    const ids = [...new Set(selection.key_ids.map((id) => id.toLowerCase()))];
    const rows = await sql<SelectedKey[]>`
      select k.id, k.key, k.group_name from translation_keys k
      where k.project_id = ${projectId} and k.deleted_at is null and k.id = any(${ids}::uuid[])
      order by k.id for no key update`;
    if (rows.length < ids.length) {
      const found = new Set(rows.map((r) => r.id));
      const missing = ids.filter((id) => !found.has(id));
      const shown = missing.slice(0, 10).join(', ') + (missing.length > 10 ? ` and ${missing.length - 10} more` : '');
      throw notFound(`${missing.length} of the selected keys ${missing.length === 1 ? 'is' : 'are'} not live keys of this project: ${shown}`);
    }
    return rows;
  }
  const filter = selection.filter ?? {};
  const rows = await sql<SelectedKey[]>`
    select k.id, k.key, k.group_name from translation_keys k
    where k.project_id = ${projectId} and k.deleted_at is null ${keyFilterSql(sql, projectId, filter)}
    order by k.id limit ${BULK_MAX_KEYS + 1} for no key update of k`;
  if (rows.length > BULK_MAX_KEYS) {
    throw validationError([
      { loc: ['body', 'filter'], msg: `the filter matches more than ${BULK_MAX_KEYS} keys: narrow it, or send key_ids page by page`, type: 'too_many' },
    ]);
  }
  return rows;
}
