import type postgres from 'postgres';
import type { Sql, TransactionSql } from './client.ts';

/** A timestamptz column as ISO 8601 UTC with milliseconds, formatted by Postgres: 2026-11-21T00:49:26.889Z. */
export const isoUtc = (sql: Sql | TransactionSql, column: string): postgres.Fragment =>
  sql`to_char(${sql(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
