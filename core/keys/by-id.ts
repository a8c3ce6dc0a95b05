// One key, or one value, found by its primary key alone. A statement that names the id and the
// project together (`where id = $1 and project_id = $2`) leaves the choice of index to the planner,
// and a planner without statistics (autovacuum off, PGlite, a freshly loaded project) may take the
// project's index and filter every key of the project by id: each single-key call then reads the
// whole project, and seeding a project through single calls becomes quadratic. OFFSET 0 keeps the
// planner from merging the caller's project check into the lookup, so only the primary key can
// serve it; the caller checks the project (and deleted_at) on the one row found.
// test/core/write-plans.test.ts holds every single-key statement to a few rows on its generic plan.
import type postgres from 'postgres';
import type { Sql, TransactionSql } from '../db/client.ts';

/** `translation_keys` row of this id (at most one), as a FROM item: `from ${keyById(sql, id)} k where k.project_id = ...`. */
export const keyById = (sql: Sql | TransactionSql, keyId: string): postgres.Fragment => sql`(select * from translation_keys where id = ${keyId} offset 0)`;

/** `translations` row of this key and language (at most one), as a FROM item. */
export const valueById = (sql: Sql | TransactionSql, keyId: string, language: postgres.Fragment | string): postgres.Fragment =>
  sql`(select * from translations where key_id = ${keyId} and language = ${language} offset 0)`;
