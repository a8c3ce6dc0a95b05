// `npm run copy-to-postgres`: a team that outgrows `npm start` on the embedded database copies it
// into a database server and starts tms there with nothing lost. The command runs as a child
// process, as a user runs it. The copy itself needs a PostgreSQL server to copy into (an empty
// database made for the test on DATABASE_URL's server): PGlite cannot be the target, as it takes
// no COPY FROM STDIN over the wire. The refusals run everywhere.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../core/db/client.ts';
import { startEmbeddedPostgres } from '../../core/db/embedded.ts';
import { killLocalServers, ROOT, startLocalServer } from './local-server-process.ts';
import { ADMIN_TOKEN, call, newProject, type Project } from './durable-place.ts';

const cleanUps: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  killLocalServers();
  for (const cleanUp of cleanUps.reverse()) await cleanUp().catch(() => {});
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-copy-'));
  cleanUps.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** An empty database to copy into: its URL, and how a server reaches it. */
type Target = { url: string; serverEnv: Record<string, string> };

/** A new, empty database on DATABASE_URL's server, dropped after the file. */
async function emptyTarget(): Promise<Target> {
  const admin = process.env.DATABASE_URL!;
  const name = `tms_copy_${randomBytes(4).toString('hex')}`;
  const sql = postgres(admin, { max: 1, onnotice: () => {} });
  await sql.unsafe(`create database ${name}`);
  await sql.end();
  cleanUps.push(async () => {
    const a = postgres(admin, { max: 1, onnotice: () => {} });
    await a.unsafe(`drop database if exists ${name} with (force)`);
    await a.end();
  });
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), serverEnv: { DATABASE_URL: url.toString() } };
}

async function copyCommand(dataDir: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'functions/copy-to-postgres.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMS_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

/** Every table's rows as one digest (and count), and every sequence's position: equal means copied whole. */
async function fingerprint(sql: Sql): Promise<Record<string, string>> {
  await sql`set timezone = 'UTC'`;
  const tables = await sql<{ name: string }[]>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r' and c.relname <> 'schema_migrations' order by 1`;
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await sql.unsafe<{ n: number; digest: string }[]>(
      `select count(*)::int as n, md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as digest from "${name}" t`,
    );
    out[name] = `${row!.n} ${row!.digest}`;
  }
  for (const s of await sql<{ name: string; last_value: string | null }[]>`
    select sequencename as name, last_value::text from pg_sequences where schemaname = current_schema()`) {
    out[`sequence ${s.name}`] = String(s.last_value);
  }
  return out;
}

const realPostgres = Boolean(process.env.DATABASE_URL);
if (!realPostgres) console.log('copy-to-postgres: the copy itself is tested only with DATABASE_URL (a PostgreSQL server to copy into)');

describe('npm run copy-to-postgres', () => {
  it.skipIf(!realPostgres)('copies the embedded database whole into an empty one, and tms goes on there', async () => {
    const source = await tempDir();
    const server = await startLocalServer({ TMS_DATA_DIR: source, PORT: '0', TMS_ADMIN_TOKEN: ADMIN_TOKEN, LOG_REQUESTS: 'false' });
    const p: Project = await newProject(server, 300);
    // Source-language values feed translation memory; a PUT after an import gives a value a later version.
    expect((await call(server, p, 'POST', '/v1/languages', { code: 'en' })).status).toBe(201);
    expect((await call(server, p, 'POST', '/v1/import/en?status=approved', JSON.stringify({ 'group1.key1': 'Value 1', 'group2.key2': 'Value 2' }))).status).toBe(200);
    const keys = (await (await call(server, p, 'GET', '/v1/keys?limit=500')).json()).keys as { id: string; key: string }[];
    const key1 = keys.find((k) => k.key === 'group1.key1')!;
    const put = await call(server, p, 'PUT', `/v1/keys/${key1.id}/translations/de`, { value: 'Wert eins', status: 'approved' });
    expect(put.status).toBe(200);
    const versionBefore = (await put.json()).version as number;
    // A comment: its table refers to keys, languages and projects, so it is copied after them.
    expect((await call(server, p, 'POST', `/v1/keys/${key1.id}/translations/de/comments`, { text: 'Formal: Sie' })).status).toBe(201);
    // Tags: an array column, copied as it is.
    expect((await call(server, p, 'PATCH', `/v1/keys/${key1.id}`, { tags: ['mobile', 'release 2.3'] })).status).toBe(200);
    expect((await call(server, p, 'DELETE', `/v1/keys/${keys.find((k) => k.key === 'group3.key3')!.id}`)).status).toBe(204);
    await server.stop();

    const target = await emptyTarget();
    const copied = await copyCommand(source, target.url);
    expect(copied.stderr).toBe('');
    expect(copied.code).toBe(0);
    expect(copied.stdout).toMatch(/^Copying .+pgdata to 127\.0\.0\.1:\d+\/\w+\n/);
    expect(copied.stdout).toMatch(/\n {2}translation_keys: 300 rows\n/);
    expect(copied.stdout).toMatch(/\nCopied [\d,]+ rows in \d+ tables in [\d.]+ s\. The embedded database is unchanged\.\n/);

    // Every row and every sequence, compared with the source.
    const sourceDb = await startEmbeddedPostgres({ dataDir: join(source, 'pgdata') });
    const from = createSql(sourceDb.url, { path: sourceDb.path, max: 1, prepare: false, connectTimeoutSeconds: 10 });
    const to = createSql(target.url, { max: 1, prepare: false, connectTimeoutSeconds: 10 });
    const expected = await fingerprint(from);
    expect(Object.keys(expected).length).toBeGreaterThan(20);
    expect(expected.memory_sources).not.toMatch(/^0 /);
    expect(expected.domain_events).not.toMatch(/^0 /);
    expect(await fingerprint(to)).toEqual(expected);

    // Copying again into what is no longer empty: refused, nothing added.
    await from.end();
    await sourceDb.close();
    const again = await copyCommand(source, target.url);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^Not copied: the target database already holds tms data \(rows in accounts, .*translation_keys.*\)\. Copy into an empty database \(createdb makes one\)\.\n$/);
    expect(await fingerprint(to)).toEqual(expected);
    await to.end();

    // tms on the copy: the same key, values, live reads; new writes take ids and versions after the old ones.
    const moved = await startLocalServer({ PORT: '0', TMS_ADMIN_TOKEN: ADMIN_TOKEN, LOG_REQUESTS: 'false', ...target.serverEnv });
    expect((await (await call(moved, p, 'GET', '/v1/keys?limit=500')).json()).count).toBe(299);
    expect((await (await call(moved, p, 'GET', '/v1/keys?tag=mobile')).json()).keys.map((k: { key: string; tags: string[] }) => [k.key, k.tags])).toEqual([
      ['group1.key1', ['mobile', 'release 2.3']],
    ]);
    const live = await call(moved, p, 'GET', '/v1/translations/de/group1/group1.key1');
    expect((await live.json()).value).toBe('Wert eins');
    // A new key records a domain event: its id comes from the copied identity sequence, after the old ones.
    expect((await call(moved, p, 'POST', '/v1/keys', { key: 'home.after_move' })).status).toBe(201);
    const putAfter = await call(moved, p, 'PUT', `/v1/keys/${key1.id}/translations/de`, { value: 'Wert 1', status: 'approved' });
    expect(putAfter.status).toBe(200);
    expect((await putAfter.json()).version).toBeGreaterThan(versionBefore);
    const suggestions = await call(moved, p, 'GET', `/v1/keys/${keys.find((k) => k.key === 'group2.key2')!.id}/suggestions/de`);
    expect(suggestions.status).toBe(200);
    await moved.stop();
  }, 180_000);

  it('refuses while the server runs on the data dir, naming it; a wrong command line; a data dir with no database', async () => {
    const source = await tempDir();
    const server = await startLocalServer({ TMS_DATA_DIR: source, PORT: '0', TMS_ADMIN_TOKEN: ADMIN_TOKEN, LOG_REQUESTS: 'false' });
    const busy = await copyCommand(source, 'postgres://nobody@127.0.0.1:1/none');
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/^The embedded database in .+pgdata is in use by process \d+ \(another npm start or npm run migrate on the same TMS_DATA_DIR\)\.\n/);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    await server.stop();

    const empty = await tempDir();
    const none = await copyCommand(empty);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^Usage: npm run copy-to-postgres -- <postgres-url>\n/);
    const help = await copyCommand(empty, '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run copy-to-postgres -- <postgres-url>\n/);
    const wrong = await copyCommand(empty, 'mysql://x@y/z');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^Not a PostgreSQL URL: mysql:\/\/x@y\/z\nUsage: /);
    const missing = await copyCommand(empty, 'postgres://tms@127.0.0.1/tms');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`No embedded database in ${join(empty, 'pgdata')} to copy (TMS_DATA_DIR is ${empty}).\n`);
  }, 60_000);
});
