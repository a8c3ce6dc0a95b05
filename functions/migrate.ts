// `npm run migrate`: applies pending migrations to DATABASE_URL (or the embedded database under
// TMS_DATA_DIR) and exits. The deploy step for Lambda stacks; the local server migrates on start.
import { loadConfig } from '../core/config.ts';
import { createRuntime } from '../core/create-runtime.ts';
import { createJsonLogger } from '../core/log.ts';

const log = createJsonLogger();
const runtime = await createRuntime(loadConfig(), { log, migrate: true });
log.info('database is up to date');
await runtime.close();
