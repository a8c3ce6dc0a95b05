// The database a long-running process (the server, `npm run migrate`, tests) talks to: DATABASE_URL,
// or the embedded PGlite under TMS_DATA_DIR (or from a dump, for tests). One pool either way.
import { existsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConfigError, type Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { createSql, type Sql } from './client.ts';
import { migrate } from './migrate.ts';
import { guardDiskSpace, type DiskGuard } from './disk-guard.ts';
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
  /** The embedded database on its data dir: writes refused while the disk is nearly full. */
  diskGuard: DiskGuard | undefined;
};

export async function openDatabase(config: Config, options: { embeddedData?: Blob; log: Logger }): Promise<OpenDatabase> {
  const common = {
    connectTimeoutSeconds: config.DATABASE_CONNECT_TIMEOUT_SECONDS,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  };
  if (config.DATABASE_URL) {
    const sql = createSql(config.DATABASE_URL, { ...common, max: config.DATABASE_POOL_MAX, prepare: config.DATABASE_PREPARE });
    const healthSql = createSql(config.DATABASE_URL, { ...common, max: 1, prepare: false });
    return { sql, healthSql, embedded: undefined, diskGuard: undefined };
  }
  if (options.embeddedData) {
    const embedded = await startEmbeddedPostgres({ loadDataDir: options.embeddedData });
    return { sql: createSql(embedded.url, { ...common, path: embedded.path, max: EMBEDDED_POOL_MAX, prepare: true }), healthSql: undefined, embedded, diskGuard: undefined };
  }
  const dataDir = join(resolve(config.TMS_DATA_DIR), 'pgdata');
  const minFreeBytes = config.TMS_DATA_DIR_MIN_FREE_MB * 1024 * 1024;
  // A new database is made by initdb (about 40 MB) before any guard can act: not on a disk that is
  // already below the floor.
  if (minFreeBytes > 0 && !existsSync(join(dataDir, 'PG_VERSION'))) {
    const parent = resolve(config.TMS_DATA_DIR);
    const free = await freeBytesNear(parent);
    if (free !== undefined && free < minFreeBytes) throw notEnoughSpace('create the embedded database', parent, free, config.TMS_DATA_DIR_MIN_FREE_MB);
  }
  const embedded = await startEmbeddedPostgres({ dataDir });
  const sql = createSql(embedded.url, { ...common, path: embedded.path, max: EMBEDDED_POOL_MAX, prepare: true });
  const diskGuard = guardDiskSpace({ sql, dir: dataDir, minFreeBytes, log: options.log });
  await diskGuard.check();
  return { sql, healthSql: undefined, embedded, diskGuard };
}

/** Free bytes on the filesystem of `dir`, or of its nearest existing parent (a data dir not made yet). */
async function freeBytesNear(dir: string): Promise<number | undefined> {
  for (let at = dir; ; at = resolve(at, '..')) {
    try {
      const s = await statfs(at);
      return s.bavail * s.bsize;
    } catch {
      if (at === resolve(at, '..')) return undefined;
    }
  }
}

/** Start refused for want of disk space: what, where, how much, and the setting. */
export function notEnoughSpace(what: string, dir: string, free: number, minFreeMb: number): ConfigError {
  return new ConfigError(
    `Not enough free disk space to ${what}: ${Math.floor(free / (1024 * 1024))} MB free under ${dir}, and the embedded database ` +
      `refuses writes below ${minFreeMb} MB (TMS_DATA_DIR_MIN_FREE_MB).\n  Free some space (or lower TMS_DATA_DIR_MIN_FREE_MB), then start again.`,
  );
}

/**
 * Applies pending migrations. On an embedded database whose disk is below the floor, Postgres
 * refuses them as it refuses every write (read-only): said as what it is, not as SQLSTATE 25006.
 */
export async function migrateDatabase(db: OpenDatabase, config: Config): Promise<string[]> {
  try {
    return await migrate(db.sql);
  } catch (error) {
    const free = db.diskGuard?.freeBytes();
    if ((error as { code?: unknown }).code === '25006' && db.diskGuard?.readOnly() && free !== undefined) {
      throw notEnoughSpace('migrate the embedded database', resolve(config.TMS_DATA_DIR), free, config.TMS_DATA_DIR_MIN_FREE_MB);
    }
    throw error;
  }
}
