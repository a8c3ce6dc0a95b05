import type { Deps } from '../deps.ts';
import { isoUtc } from '../db/iso-timestamp.ts';
import { useCase } from '../use-case.ts';
import { ListLanguagesCommand, type LanguageList } from './schemas.ts';

/** Registered languages in the order they were added. */
export const listLanguages = useCase(ListLanguagesCommand, async (deps: Pick<Deps, 'sql'>, { projectId }): Promise<LanguageList> => {
  const rows = await deps.sql<{ code: string; added_at: string }[]>`
    select code, ${isoUtc(deps.sql, 'added_at')} as added_at
    from project_languages where project_id = ${projectId}
    order by added_at, code`;
  return { project_id: projectId, languages: rows, count: rows.length };
});
