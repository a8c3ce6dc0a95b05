import type { Deps } from '../deps.ts';
import type { KeyItem, KeyList } from './schemas.ts';

/** Live keys of the project, ordered by key name; optionally one group's. */
export async function listKeys(deps: Pick<Deps, 'sql'>, projectId: string, group?: string): Promise<KeyList> {
  const rows = await deps.sql<KeyItem[]>`
    select id, key, group_name, description,
           to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
           to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at
    from translation_keys
    where project_id = ${projectId} and deleted_at is null
      ${group === undefined ? deps.sql`` : deps.sql`and group_name = ${group}`}
    order by key`;
  return { project_id: projectId, keys: rows, count: rows.length };
}
