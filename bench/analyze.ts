// ANALYZE after the seed. Right after a bulk load the planner has no statistics for the new rows
// and may pick plans that are quadratic in the project size (seen: 15 s for one live-language read
// of 10,000 keys, a nested loop over 45 million pairs). On Postgres, autovacuum analyzes within a
// minute or so, so a benchmark that does not wait for it measures a race. PGlite never runs
// autovacuum: there, the tables stay unanalyzed until something runs ANALYZE.
// `--no-analyze` skips this and measures the tables as the seed left them.
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
