// Outdated values: a value is outdated when its key's value in the project's source language got a
// new text after this value's text was last written or marked up to date (migration 028's text_at).
// The translator sees which translations to look at again after a source change; nothing else
// changes: an outdated approved value is still approved and still served, as in Tolgee and Lokalise.
// docs/decisions.md, "Outdated values: the source changed after the translation". Always compared in
// SQL: text_at has microseconds, a JavaScript Date only milliseconds.
import type postgres from 'postgres';
import type { Sql, TransactionSql } from '../db/client.ts';

/**
 * SQL condition on `k` (translation_keys): the key's value in `language` is outdated. Both values are
 * reached by primary key from the key, so the plan is two probes per key with or without statistics;
 * the source language's value itself is never outdated (the `<>`).
 */
export function outdatedInSql(sql: Sql | TransactionSql, projectId: string, language: string): postgres.Fragment {
  return sql`exists (
    select 1 from projects p
      join translations t on t.key_id = k.id and t.language = ${language}
      join translations s on s.key_id = k.id and s.language = p.source_language
    where p.id = ${projectId} and t.language <> p.source_language and s.text_at > t.text_at)`;
}
