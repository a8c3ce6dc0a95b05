import type { Deps } from '../deps.ts';
import { isoUtc } from '../db/iso-timestamp.ts';
import { useCase } from '../use-case.ts';
import { keyFilterSql } from './key-filter.ts';
import { decodeCursor, encodeCursor } from './key-cursor.ts';
import { LIST_LIMIT_DEFAULT, ListKeysCommand, type KeyItem, type KeyList } from './schemas.ts';

/**
 * Live keys of the project in name order, filtered (key-filter.ts). With a limit or a cursor, one
 * page and the cursor of the next; with neither, every match, as the spec lists them. The page walks
 * the (project_id, key) index of live keys from the cursor on: page 200 of a 10,000-key project
 * costs what page 1 does (no OFFSET, no count of everything).
 *
 * Ordered by name alone: a live key's name is unique in its project (translation_keys_live_name_idx),
 * so the name is the whole position, and the order is the index's own. Ordered by (name, id), which
 * no index gives, a planner without statistics sorted every live key of the project to return the
 * first 50 (9,800 rows read for a page of a 10,000-key project; 49,000 with a status filter). The
 * cursor still carries the id (cursors given out before stay valid); a key deleted and created
 * again under the name of the cursor's is behind it, as the name was.
 */
export const listKeys = useCase(ListKeysCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<KeyList> => {
  const { sql } = deps;
  const { projectId } = input;
  const paged = input.limit !== undefined || input.cursor !== undefined;
  const limit = input.limit ?? LIST_LIMIT_DEFAULT;
  const after = input.cursor === undefined ? null : decodeCursor(input.cursor);
  const rows = await sql<KeyItem[]>`
    select k.id, k.key, k.group_name, k.description, k.tags, k.max_length,
           ${isoUtc(sql, 'k.created_at')} as created_at, ${isoUtc(sql, 'k.updated_at')} as updated_at
    from translation_keys k
    where k.project_id = ${projectId} and k.deleted_at is null
      ${after === null ? sql`` : sql`and k.key > ${after.key}`}
      ${keyFilterSql(sql, projectId, input)}
    order by k.key
    ${paged ? sql`limit ${limit + 1}` : sql``}`;
  if (!paged) return { project_id: projectId, keys: rows, count: rows.length };
  const keys = rows.slice(0, limit);
  const last = keys.at(-1);
  return {
    project_id: projectId,
    keys,
    count: keys.length,
    next_cursor: rows.length > limit && last ? encodeCursor(last) : null,
  };
});
