// How many values each language holds: the Languages tab shows them, and removing a language says
// how many values it would delete before it does.
import type { Deps } from '../deps.ts';

/** How many values removing a language would delete, for the confirmation. */
export async function valuesInLanguage(deps: Pick<Deps, 'sql'>, projectId: string, code: string): Promise<number> {
  const [row] = await deps.sql<{ count: number }[]>`
    select count(*)::int as count from translations where project_id = ${projectId} and language = ${code}`;
  return row!.count;
}

/**
 * The values of the project's live keys in every language, in one statement (one count per language
 * was one statement per language, each its own pass over the project's values index). Values of
 * deleted keys are kept hidden for the Trash and are not counted: the tab says what the project
 * serves (removing a language deletes those too, and its confirmation counts them).
 */
export async function valuesPerLanguage(deps: Pick<Deps, 'sql'>, projectId: string): Promise<Map<string, number>> {
  const rows = await deps.sql<{ language: string; count: number }[]>`
    select t.language, count(*)::int as count
    from translations t join translation_keys k on k.id = t.key_id and k.deleted_at is null
    where t.project_id = ${projectId} group by t.language`;
  return new Map(rows.map((r) => [r.language, r.count]));
}
