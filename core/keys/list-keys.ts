import type { Deps } from '../deps.ts';
import type { KeyItem, KeyList } from './schemas.ts';
import { isoUtc } from '../db/iso-timestamp.ts';
import { isGroupName } from '../validation.ts';

/** Live keys of the project, ordered by key name; optionally one group's. */
export async function listKeys(deps: Pick<Deps, 'sql'>, projectId: string, group?: string): Promise<KeyList> {
  // A filter that could never be a group name (NUL, bad characters, too long) matches no key.
  if (group !== undefined && !isGroupName(group)) return { project_id: projectId, keys: [], count: 0 };
  const rows = await deps.sql<KeyItem[]>`
    select id, key, group_name, description,
           ${isoUtc(deps.sql, 'created_at')} as created_at, ${isoUtc(deps.sql, 'updated_at')} as updated_at
    from translation_keys
    where project_id = ${projectId} and deleted_at is null
      ${group === undefined ? deps.sql`` : deps.sql`and group_name = ${group}`}
    order by key`;
  return { project_id: projectId, keys: rows, count: rows.length };
}
