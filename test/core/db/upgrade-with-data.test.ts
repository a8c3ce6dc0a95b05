// An installation upgraded over several migrations at once, with data in it: the test suite's
// databases are migrated empty, where every file passes. A deployment from before 024 holding a key
// name in NFD (the very case 024 rewrites) could not be migrated: all pending files ran in one
// transaction, 024's UPDATE queued 007's deferred content-version trigger, and 025's CREATE INDEX
// on the same table refused "pending trigger events", so `npm start` exited on every attempt.
// Runs on embedded PGlite, and on PostgreSQL too when DATABASE_URL names one.
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { PGLITE_EXTENSIONS } from '../../../core/db/embedded.ts';
import { createSql, type Sql } from '../../../core/db/client.ts';
import { migrate } from '../../../core/db/migrate.ts';
import { usingRealPostgres } from '../../support/test-database.ts';

const MIGRATIONS = fileURLToPath(new URL('../../../core/db/migrations/', import.meta.url));
const ALL = (await readdir(MIGRATIONS)).filter((f) => f.endsWith('.sql')).sort();

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(prefix: string) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The migrations of a release that had files up to `last` (inclusive), in a directory of their own. */
async function migrationsUpTo(last: string): Promise<string> {
  const dir = await tempDir('tms-old-migrations-');
  for (const f of ALL) if (f <= last) await cp(join(MIGRATIONS, f), join(dir, f));
  return dir + '/';
}

type Kind = 'embedded' | 'postgres';

/** An empty database of the kind asked. */
async function emptyDatabase(kind: Kind): Promise<Sql> {
  if (kind === 'embedded') {
    const db = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
    await server.start();
    const sql = createSql(`postgres://postgres@${server.getServerConn()}/postgres`, { max: 1, prepare: true, connectTimeoutSeconds: 5 });
    cleanups.push(async () => {
      await sql.end();
      await server.stop();
      await db.close();
    });
    return sql;
  }
  const adminUrl = process.env.DATABASE_URL!;
  const name = `tms_test_upgrade_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const sql = createSql(url.toString(), { max: 3, prepare: true, connectTimeoutSeconds: 5 });
  cleanups.push(async () => {
    await sql.end();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  return sql;
}

const kinds: Kind[] = usingRealPostgres() ? ['embedded', 'postgres'] : ['embedded'];

describe.each(kinds)('an upgrade with data (%s)', (kind) => {
  it('a deployment at 023 with NFD key and group names, live and deleted, values and a twin, migrates to the last file', async () => {
    const sql = await emptyDatabase(kind);
    await migrate(sql, await migrationsUpTo('023_search_folding.sql'));

    const [account] = await sql<{ id: string }[]>`insert into accounts (name, plan) values ('Acme', 'free') returning id`;
    const [project] = await sql<{ id: string }[]>`insert into projects (account_id, name) values (${account!.id}, 'App') returning id`;
    const p = project!.id;
    await sql`insert into project_languages (project_id, code) values (${p}, 'de')`;
    const [cafe] = await sql<{ id: string }[]>`
      insert into translation_keys (project_id, key, group_name) values (${p}, ${'menu.cafe\u0301'}, ${'cafe\u0301s'}) returning id`;
    await sql`insert into translation_keys (project_id, key, group_name, deleted_at) values (${p}, ${'old.re\u0301sume\u0301'}, 'old', now())`;
    // A twin: the same name typed in NFC and written by a tool in NFD. The NFD one stays (by id).
    await sql`insert into translation_keys (project_id, key, group_name) values (${p}, ${'twin.caf\u00e9'}, 'twin')`;
    await sql`insert into translation_keys (project_id, key, group_name) values (${p}, ${'twin.cafe\u0301'}, 'twin')`;
    await sql`insert into translations (key_id, project_id, language, value, status) values (${cafe!.id}, ${p}, 'de', 'Kaffee', 'approved')`;
    const [before] = await sql<{ version: string }[]>`select coalesce(sum(version), 0)::text as version from project_content_versions where project_id = ${p}`;

    const later = ALL.filter((f) => f > '023_search_folding.sql');
    expect(later.length).toBeGreaterThanOrEqual(3);
    await expect(migrate(sql)).resolves.toEqual(later);

    const keys = await sql<{ key: string; group_name: string; deleted: boolean }[]>`
      select key, group_name, deleted_at is not null as deleted from translation_keys where project_id = ${p}`;
    const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    expect([...keys].sort(byKey)).toEqual([
      { key: 'menu.caf\u00e9', group_name: 'caf\u00e9s', deleted: false },
      { key: 'old.r\u00e9sum\u00e9', group_name: 'old', deleted: true },
      { key: 'twin.cafe\u0301', group_name: 'twin', deleted: false },
      { key: 'twin.caf\u00e9', group_name: 'twin', deleted: false },
    ].sort(byKey));
    const [value] = await sql<{ value: string }[]>`select value from translations where key_id = ${cafe!.id}`;
    expect(value!.value).toBe('Kaffee');
    // The rename moved the project's content version (live ETags change; cached reads rebuild).
    const [after] = await sql<{ version: string }[]>`select coalesce(sum(version), 0)::text as version from project_content_versions where project_id = ${p}`;
    expect(BigInt(after!.version)).toBeGreaterThan(BigInt(before!.version));

    await expect(migrate(sql)).resolves.toEqual([]);
  });

  // A deployment of any age: the same few rows (valid in every schema since 001) written at each
  // of these points, then every later file applied at once, as an upgrade over months does.
  it.each(['001_init.sql', '006_rebuild_queue.sql', '009_idempotency_keys.sql', '013_webhooks.sql', '017_memory_index_pending_list.sql', '021_memory_size_classes_expression.sql'])(
    'a deployment at %s with keys, languages and values migrates to the last file',
    async (last) => {
      const sql = await emptyDatabase(kind);
      await migrate(sql, await migrationsUpTo(last));
      const [account] = await sql<{ id: string }[]>`insert into accounts (name, plan) values ('Acme', 'team') returning id`;
      const [project] = await sql<{ id: string }[]>`insert into projects (account_id, name) values (${account!.id}, 'App') returning id`;
      const p = project!.id;
      for (const code of ['en', 'de']) await sql`insert into project_languages (project_id, code) values (${p}, ${code})`;
      const names = ['home.title', 'home.cafe\u0301', 'menu.open', 'gone.key'];
      for (const [i, name] of names.entries()) {
        const [key] = await sql<{ id: string }[]>`
          insert into translation_keys (project_id, key, group_name, deleted_at)
          values (${p}, ${name}, ${name.split('.')[0]!}, ${name.startsWith('gone') ? new Date() : null}) returning id`;
        await sql`insert into translations (key_id, project_id, language, value, status) values (${key!.id}, ${p}, 'en', ${`Text ${i}`}, 'approved')`;
        await sql`insert into translations (key_id, project_id, language, value, status) values (${key!.id}, ${p}, 'de', ${`Text ${i} (de)`}, ${i % 2 ? 'draft' : 'review'})`;
      }

      await expect(migrate(sql)).resolves.toEqual(ALL.filter((f) => f > last));
      const [counts] = await sql<{ keys: string; values: string }[]>`
        select (select count(*) from translation_keys where project_id = ${p})::text as keys,
               (select count(*) from translations where project_id = ${p})::text as values`;
      expect(counts).toEqual({ keys: '4', values: '8' });
      const [cafe] = await sql<{ n: string }[]>`select count(*)::text as n from translation_keys where key = ${'home.caf\u00e9'}`;
      expect(cafe!.n).toBe('1');
    },
  );

  it('a file that fails names itself, leaves the files before it applied, and the next run goes on from it', async () => {
    const sql = await emptyDatabase(kind);
    const dir = await migrationsUpTo(ALL.at(-1)!);
    const bad = '999_review_bad.sql';
    await writeFile(join(dir, bad), 'create table upgrade_probe (id int);\nselect no_such_function();\n');

    const failed = await migrate(sql, dir).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failed?.message).toContain(`migration ${bad}`);
    expect(failed?.message).toContain('no_such_function');
    const versions = (await sql<{ version: string }[]>`select version from schema_migrations order by version`).map((r) => r.version);
    expect(versions).toEqual(ALL);
    // The failed file left nothing behind: its own transaction rolled back.
    const [probe] = await sql<{ exists: boolean }[]>`select to_regclass('upgrade_probe') is not null as exists`;
    expect(probe!.exists).toBe(false);

    await writeFile(join(dir, bad), 'create table upgrade_probe (id int);\n');
    await expect(migrate(sql, dir)).resolves.toEqual([bad]);
  });
});
