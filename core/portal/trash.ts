// The trash's reads: a project's soft-deleted keys, newest first, and the groups whose last delete
// can be undone (restoreKey and restoreGroup do the restoring, as the admin API does).
import type { Deps } from '../deps.ts';

export type TrashedKey = { id: string; key: string; group_name: string; deleted_at: string };
/**
 * Keys of one group deleted together (its last delete, restoreGroup's unit). `live`: the group still
 * has keys (a bulk delete of some of its keys), so it is not a deleted group, only keys deleted together.
 */
export type TrashedGroup = { group_name: string; keys: number; deleted_at: string; live: boolean };

export const TRASH_LIMIT = 200;

// Each group's last delete is found in one pass over the project's deleted keys (a window): the
// former correlated max() per key ran once for every key of the project, each a scan of the table
// (no index serves deleted keys), 12.8 s for a 10,000-key project with statistics or without.
export async function listTrash(deps: Pick<Deps, 'sql'>, projectId: string): Promise<{ keys: TrashedKey[]; groups: TrashedGroup[] }> {
  const [keys, groups] = await Promise.all([
    deps.sql<{ id: string; key: string; group_name: string; deleted_at: Date }[]>`
      select id, key, group_name, deleted_at from translation_keys
      where project_id = ${projectId} and deleted_at is not null
      order by deleted_at desc, key limit ${TRASH_LIMIT}`,
    // A group's last delete: the keys soft-deleted together at its latest deleted_at.
    // Whether the group still has live keys: one probe of the live-group index per group listed.
    deps.sql<{ group_name: string; keys: number; deleted_at: Date; live: boolean }[]>`
      select k.group_name, count(*)::int as keys, k.deleted_at,
        exists (select 1 from translation_keys l where l.project_id = ${projectId} and l.group_name = k.group_name and l.deleted_at is null) as live
      from (
        select group_name, deleted_at, max(deleted_at) over (partition by group_name) as last_delete
        from translation_keys where project_id = ${projectId} and deleted_at is not null) k
      where k.deleted_at = k.last_delete
      group by k.group_name, k.deleted_at
      having count(*) > 1
      order by k.deleted_at desc limit ${TRASH_LIMIT}`,
  ]);
  const iso = (d: Date) => new Date(d).toISOString();
  return {
    keys: keys.map((k) => ({ ...k, deleted_at: iso(k.deleted_at) })),
    groups: groups.map((g) => ({ ...g, deleted_at: iso(g.deleted_at) })),
  };
}
