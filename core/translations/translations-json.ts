// The `translations` object of the read bodies, built by Postgres as compact JSON text: one value
// crosses the wire instead of thousands of rows, and Node neither decodes rows nor serializes them
// again. Keys are in code-point order (collate "C") in every body, live and cached alike. to_json()
// escapes strings as JSON.stringify does (values holding NUL or lone surrogates are refused on write).
import type postgres from 'postgres';
import type { Sql, TransactionSql } from '../db/client.ts';

type AnySql = Sql | TransactionSql;

/** Which entries: a plain string per key, or objects with status (and group, for a language). */
export type EntryShape = 'value' | 'value-status' | 'value-status-group';

function entry(sql: AnySql, shape: EntryShape): postgres.Fragment {
  switch (shape) {
    case 'value':
      return sql`to_json(k.key)::text || ':' || to_json(t.value)::text`;
    case 'value-status':
      return sql`to_json(k.key)::text || ':{"value":' || to_json(t.value)::text || ',"status":"' || t.status || '"}'`;
    case 'value-status-group':
      return sql`to_json(k.key)::text || ':{"value":' || to_json(t.value)::text || ',"status":"' || t.status || '","group":' || to_json(k.group_name)::text || '}'`;
  }
}

/**
 * An aggregate over rows `t` (translations) joined to `k` (their keys): the JSON object of the rows
 * that pass `where`, `{}` when none do. Use it in a select list, aggregating the whole row set.
 */
export function translationsObject(sql: AnySql, shape: EntryShape, where: postgres.Fragment): postgres.Fragment {
  return sql`coalesce('{' || string_agg(${entry(sql, shape)}, ',' order by k.key collate "C") filter (where ${where}) || '}', '{}')`;
}

/** The read bodies' envelope around a prebuilt translations object, serialized once. */
export function envelope(fields: Record<string, string | number>, translations: string): string {
  return `${envelopeHead(fields)}${translations}}`;
}

const CLOSE = Buffer.from('}');

/**
 * The same envelope as bytes, around the translations object as Postgres sent it (a raw column):
 * the builder's large bodies are never decoded into strings and encoded back, which for a
 * 100,000-key language is three 5.5 MB copies fewer.
 */
export function envelopeBytes(fields: Record<string, string | number>, translations: Uint8Array): Buffer {
  const head = Buffer.from(envelopeHead(fields), 'utf8');
  return Buffer.concat([head, translations, CLOSE], head.length + translations.length + 1);
}

function envelopeHead(fields: Record<string, string | number>): string {
  let json = '{';
  for (const name in fields) json += `${JSON.stringify(name)}:${JSON.stringify(fields[name])},`;
  return `${json}"translations":`;
}
