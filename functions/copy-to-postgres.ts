// `npm run copy-to-postgres -- <postgres-url>`: copies the embedded database (`npm start` without
// DATABASE_URL, under TMS_DATA_DIR) into an empty PostgreSQL database, for a team that moves to a
// database server. The embedded database is only read (and migrated, as `npm start` would); it is
// locked meanwhile, so the server must be stopped first. Exit 0 when copied, 1 when refused or
// failed (nothing written to the target but its empty schema), 2 for a wrong command line.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from '../core/config.ts';
import { createSql } from '../core/db/client.ts';
import { copyDatabase, TargetNotEmptyError } from '../core/db/copy-database.ts';
import { startEmbeddedPostgres } from '../core/db/embedded.ts';

const USAGE =
  'Usage: npm run copy-to-postgres -- <postgres-url>\n' +
  '  Copies the embedded database under TMS_DATA_DIR (now: %DIR%) into the empty PostgreSQL database at the URL.\n' +
  '  Stop tms first. Example: npm run copy-to-postgres -- postgres://tms@db.example.com:5432/tms\n';

function fail(message: string, code = 1): never {
  process.stderr.write(message.endsWith('\n') ? message : `${message}\n`);
  process.exit(code);
}

const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
})();
const dir = resolve(config.TMS_DATA_DIR);
const args = process.argv.slice(2);
const url = args[0];
if (args.length === 1 && (url === '--help' || url === '-h')) {
  process.stdout.write(USAGE.replace('%DIR%', dir));
  process.exit(0);
}
if (args.length !== 1 || !url || !/^postgres(ql)?:\/\/./.test(url)) {
  fail(`${args.length === 0 ? '' : `Not a PostgreSQL URL: ${args.join(' ')}\n`}${USAGE.replace('%DIR%', dir)}`, 2);
}
const dataDir = join(dir, 'pgdata');
if (!existsSync(join(dataDir, 'PG_VERSION'))) fail(`No embedded database in ${dataDir} to copy (TMS_DATA_DIR is ${dir}).`);

const where = describe(url);
const started = performance.now();
const embedded = await startEmbeddedPostgres({ dataDir }).catch((error: unknown) => {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
});
const common = { connectTimeoutSeconds: config.DATABASE_CONNECT_TIMEOUT_SECONDS, prepare: false, max: 1 };
const source = createSql(embedded.url, { ...common, path: embedded.path });
const target = createSql(url, common);
process.stdout.write(`Copying ${dataDir} to ${where}\n`);
try {
  const { tables } = await copyDatabase({
    source,
    target,
    onTable: ({ table, rows }) => process.stdout.write(`  ${table}: ${rows.toLocaleString('en-US')} rows\n`),
  });
  const rows = tables.reduce((sum, t) => sum + t.rows, 0);
  process.stdout.write(
    `Copied ${rows.toLocaleString('en-US')} rows in ${tables.length} tables in ${((performance.now() - started) / 1000).toFixed(1)} s. ` +
      `The embedded database is unchanged.\n` +
      `Next: start tms with DATABASE_URL set to that URL. Cached files are not part of the database: with another object ` +
      `store (S3_BUCKET) than ${join(dir, 'objects')}, publish each project once (tms publish, or POST /v1/cache/rebuild).\n`,
  );
} catch (error) {
  process.exitCode = 1;
  if (error instanceof TargetNotEmptyError) {
    process.stderr.write(`Not copied: ${error.message}. Copy into an empty database (createdb makes one).\n`);
  } else {
    process.stderr.write(`Not copied to ${where}: ${error instanceof Error ? error.message : String(error)}. Nothing was copied: the target holds at most tms's empty tables.\n`);
  }
} finally {
  await Promise.allSettled([source.end({ timeout: 5 }), target.end({ timeout: 5 })]);
  await embedded.close();
}

/** host:port/database of a URL, never its password. */
function describe(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.hostname || 'localhost'}:${u.port || '5432'}${u.pathname}`;
  } catch {
    fail(`Not a PostgreSQL URL: ${raw}\n${USAGE.replace('%DIR%', dir)}`, 2);
  }
}
