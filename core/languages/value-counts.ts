// How many values each language holds: the Languages tab shows them, and removing a language says
// how many values it would delete before it does.
import type { Deps } from '../deps.ts';
import type { ShownValues } from './schemas.ts';

/**
 * What removing a language would delete, for its confirmation: how many values (also those kept for
 * deleted keys) and the latest version among them, which the removal checks again (ShownValues).
 */
export async function valuesInLanguage(deps: Pick<Deps, 'sql'>, projectId: string, code: string): Promise<ShownValues> {
  const [row] = await deps.sql<{ count: number; latest: string }[]>`
    select count(*)::int as count, coalesce(max(version), 0)::text as latest
    from translations where project_id = ${projectId} and language = ${code}`;
  return { values: row!.count, latest: Number(row!.latest) };
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
