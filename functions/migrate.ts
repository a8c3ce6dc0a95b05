// `npm run migrate`: applies pending migrations to DATABASE_URL (or the embedded database under
// TMS_DATA_DIR) and exits. The deploy step for Lambda stacks; the local server migrates on start.
// It opens the database and nothing else: no counter store (Redis), no object store or queue, and
// no admin token (a deploy step must not mint a credential into whatever directory it runs in).
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db/open-database.ts';
import { migrate } from '../core/db/migrate.ts';
import { createJsonLogger } from '../core/log.ts';

const log = createJsonLogger();
const config = loadConfig();
// No statement deadline matters here: migrate() lifts it for its own transaction.
const { sql, embedded } = await openDatabase(config);
try {
  const applied = await migrate(sql);
  log.info('database is up to date', { applied });
} catch (error) {
  log.error('migration failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exitCode = 1;
} finally {
  await sql.end({ timeout: 5 });
  await embedded?.close();
}
