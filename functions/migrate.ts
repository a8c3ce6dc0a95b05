// `npm run migrate`: applies pending migrations to DATABASE_URL (or the embedded database under
// TMS_DATA_DIR) and exits. The deploy step for Lambda stacks; the local server migrates on start.
// It opens the database and nothing else: no counter store (Redis), no object store or queue, and
// no admin token (a deploy step must not mint a credential into whatever directory it runs in).
import { resolve } from 'node:path';
import { ConfigError, loadConfig } from '../core/config.ts';
import { migrateDatabase, openDatabase } from '../core/db/open-database.ts';
import { createJsonLogger } from '../core/log.ts';

const log = createJsonLogger();
// A deploy step whose DATABASE_URL arrived empty (a CI secret missing, renamed or not given to a
// fork) must not migrate an embedded database on the runner and report success: the real database
// would stay unmigrated under new code. Unset, it means the embedded database, on purpose.
if (process.env['DATABASE_URL'] !== undefined && process.env['DATABASE_URL'].trim() === '') {
  process.stderr.write(
    'DATABASE_URL is set but empty: nothing migrated. Give it the database to migrate, or unset it to migrate the embedded database under TMS_DATA_DIR.\n',
  );
  process.exit(1);
}
const config = loadConfig();
// No statement deadline matters here: migrate() lifts it in each file's transaction.
const db = await openDatabase(config, { log }).catch((error: unknown) => {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
const { sql, embedded, diskGuard } = db;
try {
  const applied = await migrateDatabase(db, config);
  log.info('database is up to date', { applied, database: databaseNamed(config) });
} catch (error) {
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  log.error('migration failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exitCode = 1;
} finally {
  await diskGuard?.close();
  await sql.end({ timeout: 5 });
  await embedded?.close();
}

/** Which database was migrated, without its credentials: host, port and name, or the data dir. */
function databaseNamed(c: typeof config): string {
  if (!c.DATABASE_URL) return `embedded: ${resolve(c.TMS_DATA_DIR)}`;
  const url = new URL(c.DATABASE_URL);
  return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
}
