// Outdated values: a value is outdated when its key's value in the project's source language got a
// new text after the one this value was written against (migration 028: text_rev, source_rev). The
// translator sees which translations to look at again after a source change; nothing else changes:
// an outdated approved value is still approved and still served, as in Tolgee and Lokalise.
// docs/decisions.md, "Outdated values: the source changed after the translation".
import type postgres from 'postgres';
import type { Sql, TransactionSql } from '../db/client.ts';

type AnySql = Sql | TransactionSql;

/**
 * SQL: value `t` is outdated against source value `s` (either may be a null row of an outer join).
 * Values from before migration 028 have no numbers: 0, older than any text written since.
 */
export const outdatedSql = (sql: AnySql, t: string, s: string): postgres.Fragment =>
  sql`(coalesce(${sql(s)}.text_rev, 0) > coalesce(${sql(t)}.source_rev, 0))`;

/**
 * SQL: the text_rev of key `keyId`'s source value (0: none), the source_rev a value written now
 * against it takes. `keyId` and `sourceLanguage` are SQL expressions of the caller's statement.
 */
export const sourceRevSql = (sql: AnySql, keyId: postgres.Fragment, sourceLanguage: postgres.Fragment): postgres.Fragment =>
  sql`coalesce((select s.text_rev from translations s where s.key_id = ${keyId} and s.language = ${sourceLanguage}), 0)`;

/**
 * SQL: the source_rev an update of value `t` to text `value` leaves: `rev` when the text changes,
 * else the one it had (the same text written again keeps its mark).
 */
export const keptSourceRevSql = (sql: AnySql, t: string, value: postgres.Fragment, rev: postgres.Fragment): postgres.Fragment =>
  sql`case when ${sql(t)}.value is distinct from ${value} then ${rev} else ${sql(t)}.source_rev end`;

/**
 * SQL condition on `k` (translation_keys): the key's value in `language` is outdated. Both values are
 * reached by primary key from the key, so the plan is two probes per key with or without statistics;
 * the source language's value itself is never outdated (the `<>`).
 */
export function outdatedInSql(sql: AnySql, projectId: string, language: string): postgres.Fragment {
  return sql`exists (
    select 1 from projects p
      join translations t on t.key_id = k.id and t.language = ${language}
      join translations s on s.key_id = k.id and s.language = p.source_language
    where p.id = ${projectId} and t.language <> p.source_language and ${outdatedSql(sql, 't', 's')})`;
}
