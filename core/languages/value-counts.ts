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
 * The values of every language of the project, in one statement (one count per language was one
 * statement per language, each its own pass over the project's values index).
 */
export async function valuesPerLanguage(deps: Pick<Deps, 'sql'>, projectId: string): Promise<Map<string, number>> {
  const rows = await deps.sql<{ language: string; count: number }[]>`
    select language, count(*)::int as count from translations where project_id = ${projectId} group by language`;
  return new Map(rows.map((r) => [r.language, r.count]));
}
