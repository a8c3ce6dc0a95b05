// `npm run migrate` (functions/migrate.ts), run as the deploy step runs it: a child process that
// applies every migration once, touches the database only (a Redis named in the environment is
// never connected to) and mints no admin token into the data dir.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { usingRealPostgres } from '../../support/test-database.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MIGRATIONS = (await readdir(join(ROOT, 'core/db/migrations'))).filter((f) => f.endsWith('.sql')).sort();

/** A TCP server that only counts who connects: where a Redis would be. */
let redis: { server: Server; port: number; connections: number };
beforeAll(async () => {
  const server = createServer((socket) => {
    redis.connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  redis = { server, port: (server.address() as AddressInfo).port, connections: 0 };
});
afterAll(async () => {
  await new Promise((resolve) => redis?.server.close(resolve));
});

type Run = { code: number | null; lines: Record<string, unknown>[]; stderr: string };

function runMigrate(env: Record<string, string>): Promise<Run> {
  // Only what the command is given: nothing inherited names a database, a Redis or a token.
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'functions/migrate.ts'],
      { cwd: ROOT, env: { ...base, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const lines = stdout
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, lines, stderr });
      },
    );
  });
}

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String);
}

describe('npm run migrate', () => {
  it('migrates a fresh embedded data dir once, writes no admin token and never connects to Redis', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'tms-migrate-'));
    try {
      const env = { TMS_DATA_DIR: dataDir, REDIS_URL: `redis://127.0.0.1:${redis.port}` };
      const first = await runMigrate(env);
      expect(first.code, first.stderr).toBe(0);
      const files = await filesUnder(dataDir);
      expect(files.some((f) => f.startsWith('pgdata'))).toBe(true);
      expect(files.filter((f) => f.includes('admin-token'))).toEqual([]);
      expect(redis.connections).toBe(0);
      expect(first.lines).toContainEqual(expect.objectContaining({ level: 'info', msg: 'database is up to date', applied: MIGRATIONS, database: `embedded: ${dataDir}` }));

      const second = await runMigrate(env);
      expect(second.code, second.stderr).toBe(0);
      expect(second.lines).toContainEqual(expect.objectContaining({ msg: 'database is up to date', applied: [] }));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  // The deploy step with CI's secret missing: DATABASE_URL arrives set but empty. Migrating an
  // embedded database on the runner and exiting 0 would let the deploy ship over an unmigrated one.
  it('refuses a DATABASE_URL that is set but empty, and creates nothing', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'tms-migrate-'));
    try {
      const run = await runMigrate({ DATABASE_URL: '', TMS_DATA_DIR: dataDir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('DATABASE_URL is set but empty: nothing migrated');
      expect(await filesUnder(dataDir)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it.runIf(usingRealPostgres())('migrates an empty Postgres database named by DATABASE_URL', async () => {
    const adminUrl = process.env.DATABASE_URL!;
    const name = `tms_test_migrate_${randomBytes(4).toString('hex')}`;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const dataDir = await mkdtemp(join(tmpdir(), 'tms-migrate-'));
    try {
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const run = await runMigrate({ DATABASE_URL: url.toString(), TMS_DATA_DIR: dataDir, REDIS_URL: `redis://127.0.0.1:${redis.port}` });
      expect(run.code, run.stderr).toBe(0);
      expect(run.lines).toContainEqual(expect.objectContaining({ msg: 'database is up to date', applied: MIGRATIONS, database: `${url.hostname}:${url.port || '5432'}/${name}` }));
      // The credentials are not in what it prints.
      if (url.password) expect(JSON.stringify(run.lines)).not.toContain(url.password);
      const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
      const versions = await db<{ version: string }[]>`select version from schema_migrations order by version`;
      await db.end();
      expect(versions.map((v) => v.version)).toEqual(MIGRATIONS);
      expect(await filesUnder(dataDir)).toEqual([]);
      expect(redis.connections).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 60_000);
});
