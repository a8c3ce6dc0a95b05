// The trash's reads: a project's soft-deleted keys, newest first, a page at a time, and the groups
// whose last delete can be undone (restoreKey and restoreGroup do the restoring, as the admin API
// does); and the check that lets the Trash page's group Restore restore the delete its line showed.
import type { Deps } from '../deps.ts';
import type { Tx } from '../db/transaction.ts';
import { conflict } from '../errors.ts';

export type TrashedKey = { id: string; key: string; group_name: string; deleted_at: string };
/**
 * Keys of one group deleted together (its last delete, restoreGroup's unit). `live`: the group still
 * has keys (a bulk delete of some of its keys), so it is not a deleted group, only keys deleted together.
 */
export type TrashedGroup = { group_name: string; keys: number; deleted_at: string; live: boolean };

/**
 * Where a page of deleted keys starts: after this key of the order (deleted_at newest first, then
 * key). `deleted_at` to the microsecond, as stored: a JavaScript Date would drop the microseconds,
 * and the next page would repeat or skip keys deleted in the same millisecond. So it travels as
 * text into SQL too (`::text::timestamptz`): a parameter Postgres types as timestamptz is
 * serialized by postgres.js through a Date.
 */
export type TrashCursor = { deletedAt: string; key: string };

export const TRASH_LIMIT = 200;

/** A timestamp as the database keeps it, to the microsecond, in UTC (ISO 8601). */
const EXACT = `YYYY-MM-DD"T"HH24:MI:SS.US"Z"`;

/**
 * A deleted_at as a form or link carries it (EXACT's shape, and a real instant: February 30th or hour
 * 99 would be Postgres's "out of range", a 500); anything else names no delete.
 */
export const isExactTimestamp = (text: string | undefined): text is string => {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(text) || text.startsWith('0000')) return false;
  // A Date rolls an impossible day over (Feb 30 to Mar 1): real only if it reads back the same.
  const millis = `${text.slice(0, 23)}Z`;
  const date = new Date(millis);
  return !Number.isNaN(date.getTime()) && date.toISOString() === millis;
};

// Each group's last delete is found in one pass over the project's deleted keys (a window): the
// former correlated max() per key ran once for every key of the project, each a scan of the table
// (no index serves deleted keys), 12.8 s for a 10,000-key project with statistics or without.
// The groups are the first page's only: each is its group's latest delete, not a point in time.
export async function listTrash(
  deps: Pick<Deps, 'sql'>,
  projectId: string,
  after?: TrashCursor,
): Promise<{ keys: TrashedKey[]; groups: TrashedGroup[]; next: TrashCursor | null }> {
  const { sql } = deps;
  const [keys, groups] = await Promise.all([
    sql<TrashedKey[]>`
      select id, key, group_name, to_char(deleted_at at time zone 'UTC', ${EXACT}) as deleted_at from translation_keys
      where project_id = ${projectId} and deleted_at is not null
        ${after ? sql`and (deleted_at < ${after.deletedAt}::text::timestamptz or (deleted_at = ${after.deletedAt}::text::timestamptz and key > ${after.key}))` : sql``}
      order by deleted_at desc, key limit ${TRASH_LIMIT + 1}`,
    // A group's last delete: the keys soft-deleted together at its latest deleted_at.
    // Whether the group still has live keys: one probe of the live-group index per group listed.
    after
      ? []
      : sql<TrashedGroup[]>`
      select k.group_name, count(*)::int as keys, to_char(k.deleted_at at time zone 'UTC', ${EXACT}) as deleted_at,
        exists (select 1 from translation_keys l where l.project_id = ${projectId} and l.group_name = k.group_name and l.deleted_at is null) as live
      from (
        select group_name, deleted_at, max(deleted_at) over (partition by group_name) as last_delete
        from translation_keys where project_id = ${projectId} and deleted_at is not null) k
      where k.deleted_at = k.last_delete
      group by k.group_name, k.deleted_at
      having count(*) > 1
      order by k.deleted_at desc limit ${TRASH_LIMIT}`,
  ]);
  const shown = keys.slice(0, TRASH_LIMIT);
  const last = shown.at(-1);
  return { keys: shown, groups: [...groups], next: keys.length > TRASH_LIMIT && last ? { deletedAt: last.deleted_at, key: last.key } : null };
}

const notThatDelete = (name: string) =>
  conflict(`the keys of ${name} this page showed are no longer its latest delete (keys of the group were deleted or restored since the page was loaded): nothing was restored. The trash below is as it is now.`);

/**
 * For a restore of the group's latest delete (restoreGroup) that must be the delete of `deletedAt`,
 * the delete a page showed: before it, that delete is still the group's latest; after it (the same
 * transaction), none of its keys is left deleted, so a delete committed in between (which would
 * have become the latest) rolls the restore back. A 409 either way.
 */
export async function restoringShownDelete<T>(tx: Tx, projectId: string, name: string, deletedAt: string, restore: () => Promise<T>): Promise<T> {
  const left = async () => {
    const [row] = await tx.sql<{ shown: number; later: boolean }[]>`
      select count(*) filter (where deleted_at = ${deletedAt}::text::timestamptz)::int as shown,
             coalesce(bool_or(deleted_at > ${deletedAt}::text::timestamptz), false) as later
      from translation_keys where project_id = ${projectId} and group_name = ${name} and deleted_at is not null`;
    return row!;
  };
  const before = await left();
  if (before.shown === 0 || before.later) throw notThatDelete(name);
  const restored = await restore();
  if ((await left()).shown > 0) throw notThatDelete(name);
  return restored;
}
