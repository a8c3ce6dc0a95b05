import type { Deps } from '../deps.ts';
import { isoUtc } from '../db/iso-timestamp.ts';
import { useCase } from '../use-case.ts';
import { isGroupName } from '../validation.ts';
import { ListKeysCommand, type KeyItem, type KeyList } from './schemas.ts';

/** Live keys of the project, ordered by key name; optionally one group's. */
export const listKeys = useCase(ListKeysCommand, async (deps: Pick<Deps, 'sql'>, { projectId, group }): Promise<KeyList> => {
  // A filter that could never be a group name (NUL, bad characters, too long) matches no key.
  if (group !== undefined && !isGroupName(group)) return { project_id: projectId, keys: [], count: 0 };
  const { sql } = deps;
  const rows = await sql<KeyItem[]>`
    select id, key, group_name, description,
           ${isoUtc(sql, 'created_at')} as created_at, ${isoUtc(sql, 'updated_at')} as updated_at
    from translation_keys
    where project_id = ${projectId} and deleted_at is null
      ${group === undefined ? sql`` : sql`and group_name = ${group}`}
    order by key`;
  return { project_id: projectId, keys: rows, count: rows.length };
});
