// `npm run migrate`: applies pending migrations to DATABASE_URL (or the embedded database under
// TMS_DATA_DIR) and exits. The deploy step for Lambda stacks; the local server migrates on start.
// It opens the database and nothing else: no counter store (Redis), no object store or queue, and
// no admin token (a deploy step must not mint a credential into whatever directory it runs in).
import { ConfigError, loadConfig } from '../core/config.ts';
import { migrateDatabase, openDatabase } from '../core/db/open-database.ts';
import { createJsonLogger } from '../core/log.ts';

const log = createJsonLogger();
const config = loadConfig();
// No statement deadline matters here: migrate() lifts it for its own transaction.
const db = await openDatabase(config, { log }).catch((error: unknown) => {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
const { sql, embedded, diskGuard } = db;
try {
  const applied = await migrateDatabase(db, config);
  log.info('database is up to date', { applied });
} catch (error) {
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  log.error('migration failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exitCode = 1;
} finally {
  await diskGuard?.close();
  await sql.end({ timeout: 5 });
  await embedded?.close();
}
