// How a glossary term is read: its translations gathered into one object (language → text), its
// times as ISO 8601 UTC. Select list over `t` (glossary_terms).
import type postgres from 'postgres';
import type { Sql, TransactionSql } from '../db/client.ts';
import { isoUtc } from '../db/iso-timestamp.ts';
import { notFound } from '../errors.ts';
import type { GlossaryTerm } from './schemas.ts';

export type TermRow = GlossaryTerm & { term_folded: string };

export const termColumns = (sql: Sql | TransactionSql): postgres.Fragment =>
  sql`t.id, t.term, t.term_folded, t.description, t.case_sensitive, t.translatable, t.forbidden,
      coalesce((select jsonb_object_agg(x.language, x.text) from glossary_term_translations x where x.term_id = t.id), '{}'::jsonb) as translations,
      ${isoUtc(sql, 't.created_at')} as created_at, ${isoUtc(sql, 't.updated_at')} as updated_at`;

/** The record an answer carries (the folded spelling is the service's own). */
export function toTerm(row: TermRow): GlossaryTerm {
  // jsonb_object_agg's keys come in jsonb's order (by length, then bytes): sorted here for people.
  const translations = Object.fromEntries(Object.entries(row.translations).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    id: row.id,
    term: row.term,
    description: row.description,
    case_sensitive: row.case_sensitive,
    translatable: row.translatable,
    forbidden: row.forbidden,
    translations,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export const termNotFound = () => notFound('Glossary term not found');
