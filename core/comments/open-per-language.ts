// How many comments wait in each language (not resolved, on live keys): the Languages tab says so,
// with a link to the editor's "Open comments" filter. One grouped read over migration 034's partial
// index of open comments, so its cost follows the open comments, not the keys or resolved ones.
import type { Deps } from '../deps.ts';

export async function openCommentsPerLanguage(deps: Pick<Deps, 'sql'>, projectId: string): Promise<Map<string, number>> {
  const rows = await deps.sql<{ language: string; n: number }[]>`
    select c.language, count(*)::int as n
    from value_comments c join translation_keys k on k.id = c.key_id and k.deleted_at is null
    where c.project_id = ${projectId} and c.resolved_at is null
    group by c.language`;
  return new Map(rows.map((r) => [r.language, r.n]));
}
