import type { Deps } from '../deps.ts';
import type { LanguageList } from './schemas.ts';
import { isoUtc } from '../db/iso-timestamp.ts';

/** Registered languages in the order they were added. */
export async function listLanguages(deps: Pick<Deps, 'sql'>, projectId: string): Promise<LanguageList> {
  const rows = await deps.sql<{ code: string; added_at: string }[]>`
    select code, ${isoUtc(deps.sql, 'added_at')} as added_at
    from project_languages where project_id = ${projectId}
    order by added_at, code`;
  return { project_id: projectId, languages: rows, count: rows.length };
}
