// How many values each language holds: the Languages tab shows them, and removing a language says
// how many values it would delete before it does.
import type { Deps } from '../deps.ts';
import type { Sql, TransactionSql } from '../db/client.ts';
import type { ShownValues } from './schemas.ts';

/**
 * What removing a language would delete, for its confirmation: how many values (also those kept for
 * deleted keys) and their digest, which the removal checks again (ShownValues).
 */
export async function valuesInLanguage(deps: Pick<Deps, 'sql'>, projectId: string, code: string): Promise<ShownValues> {
  const [row] = await deps.sql<ShownValues[]>`select ${shownValuesColumns(deps.sql)} from translations where project_id = ${projectId} and language = ${code}`;
  return row!;
}

/** How many comments removing a language would delete with its values (core/comments), for its confirmation to say. */
export async function commentsInLanguage(deps: Pick<Deps, 'sql'>, projectId: string, code: string): Promise<number> {
  const [row] = await deps.sql<{ n: number }[]>`select count(*)::int as n from value_comments where project_id = ${projectId} and language = ${code}`;
  return row!.n;
}

/**
 * A language's values as a confirmation shows them: the count, and an md5 of every value's key id and
 * version in key order. Versions are handed out when a write runs, not when it commits: the latest
 * version alone would miss a change committed after the confirmation by a write (a long import) that
 * took its version before a later one. Every value written, changed or deleted changes the digest.
 */
export const shownValuesColumns = (sql: Sql | TransactionSql) =>
  sql`count(*)::int as values, coalesce(md5(string_agg(key_id::text || ':' || version::text, ',' order by key_id)), 'none') as digest`;

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
