// ANALYZE for the benchmark's "(analyzed)" rows (bench/run.ts). By default the live rows and the
// 10,000-key rebuild are measured first as the seed left the tables, as a user who has just loaded
// a project meets them: on a Postgres without autovacuum (this machine's, many CI setups) and on
// PGlite (which never runs it) the planner then has only what the service refreshed itself
// (core/db/refresh-statistics.ts). Before the live reads' plans were made linear without statistics,
// a live-language read of 10,000 keys then took 15 s or more (a nested loop over tens of millions of
// pairs). Then ANALYZE, as autovacuum would some time later, and the same rows again.
// `--analyze-first` runs this before any measurement instead (the old default).
import { join } from 'node:path';
import { createSql, type Sql } from '../core/db/client.ts';
import { startEmbeddedPostgres } from '../core/db/embedded.ts';

const TABLES = ['translation_keys', 'translations', 'project_languages', 'projects', 'accounts', 'api_keys'];

async function analyzeTables(sql: Sql): Promise<void> {
  for (const table of TABLES) await sql.unsafe(`analyze ${table}`);
}

/** On real Postgres, through a client on the benchmark's database. Returns milliseconds. */
export async function analyzePostgres(sql: Sql): Promise<number> {
  const started = performance.now();
  await analyzeTables(sql);
  return Math.round(performance.now() - started);
}

/**
 * On PGlite, the database files are opened by one process at a time: the service must be stopped
 * first (and started again after). The data dir is the service's TMS_DATA_DIR.
 */
export async function analyzeEmbedded(dataDir: string): Promise<number> {
  const started = performance.now();
  const embedded = await startEmbeddedPostgres({ dataDir: join(dataDir, 'pgdata') });
  const sql = createSql(embedded.url, { path: embedded.path, max: 1, prepare: true, connectTimeoutSeconds: 5 });
  try {
    await analyzeTables(sql);
  } finally {
    await sql.end({ timeout: 5 });
    await embedded.close();
  }
  return Math.round(performance.now() - started);
}
