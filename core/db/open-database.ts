// The database a long-running process (the server, `npm run migrate`, tests) talks to: DATABASE_URL,
// or the embedded PGlite under TMS_DATA_DIR (or from a dump, for tests). One pool either way.
import { join, resolve } from 'node:path';
import type { Config } from '../config.ts';
import { createSql, type Sql } from './client.ts';
import { EMBEDDED_POOL_MAX, startEmbeddedPostgres, type EmbeddedPostgres } from './embedded.ts';

export type OpenDatabase = {
  sql: Sql;
  /**
   * Real Postgres: one connection of its own for /health, so that a pool whose every connection is
   * busy (long imports, a burst) does not read as a database that is down. It connects on the first
   * check and closes after a minute without one. Unset for the embedded database, whose single
   * backend serializes all work anyway: a second connection would wait just the same.
   */
  healthSql: Sql | undefined;
  embedded: EmbeddedPostgres | undefined;
};

export async function openDatabase(config: Config, options: { embeddedData?: Blob } = {}): Promise<OpenDatabase> {
  const common = {
    connectTimeoutSeconds: config.DATABASE_CONNECT_TIMEOUT_SECONDS,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  };
  if (config.DATABASE_URL) {
    const sql = createSql(config.DATABASE_URL, { ...common, max: config.DATABASE_POOL_MAX, prepare: config.DATABASE_PREPARE });
    const healthSql = createSql(config.DATABASE_URL, { ...common, max: 1, prepare: false });
    return { sql, healthSql, embedded: undefined };
  }
  const embedded = await startEmbeddedPostgres(
    options.embeddedData ? { loadDataDir: options.embeddedData } : { dataDir: join(resolve(config.TMS_DATA_DIR), 'pgdata') },
  );
  return { sql: createSql(embedded.url, { ...common, path: embedded.path, max: EMBEDDED_POOL_MAX, prepare: true }), healthSql: undefined, embedded };
}
