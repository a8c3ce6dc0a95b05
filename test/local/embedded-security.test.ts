// The embedded database has no password and one superuser, so nobody but the service may reach it:
// it listens on a Unix socket in a 0700 directory (no TCP port), takes one connection (the
// service's), and `npm start` keeps its data directory and every directory in it 0700 (files it
// writes itself, such as the admin token and built cache files, 0600).
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../core/db/embedded.ts';
import { createSql } from '../../core/db/client.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('the embedded database', () => {
  it('listens only on a socket in a private directory, and lets in no second client', async () => {
    const embedded = await startEmbeddedPostgres({});
    try {
      expect(embedded.path).toBeDefined();
      expect(await mode(dirname(embedded.path!))).toBe(0o700);
      const service = createSql(embedded.url, { path: embedded.path, max: 1, prepare: true, connectTimeoutSeconds: 5 });
      expect((await service`select 1 as one`)[0]).toEqual({ one: 1 });
      // Another client, even of the same user, cannot take a connection while the service holds its own.
      const intruder = postgres(embedded.url, { path: embedded.path!, max: 1, connect_timeout: 2, onnotice: () => {} });
      await expect(intruder`select 1`).rejects.toThrow();
      await intruder.end({ timeout: 1 }).catch(() => {});
      expect((await service`select 2 as two`)[0]).toEqual({ two: 2 });
      await service.end();
    } finally {
      await embedded.close();
    }
  }, 30_000);

  it('npm start keeps its data directory 0700 and its own files 0600', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'tms-perm-'));
    const env = { ...process.env, TMS_DATA_DIR: dataDir, PORT: '0' } as Record<string, string | undefined>;
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'TMS_ADMIN_TOKEN', 'S3_BUCKET', 'SQS_QUEUE_URL']) delete env[name];
    const child = spawn(process.execPath, ['--import', 'tsx', 'functions/local.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      await new Promise<void>((resolve, reject) => {
        // A first start migrates a new database: under a loaded run (two test workers and the
        // child on two cores) that took over 30 s once, 9 s alone.
        const timer = setTimeout(() => reject(new Error(`no start:\n${out}`)), 75_000);
        child.stdout.on('data', () => /Admin token/.test(out) && (clearTimeout(timer), resolve()));
      });
      expect(await mode(dataDir)).toBe(0o700);
      expect(await mode(join(dataDir, 'admin-token'))).toBe(0o600);
      // PGlite sets its own files' modes; they sit in this 0700 directory, which no one else can enter.
      expect(await mode(join(dataDir, 'pgdata'))).toBe(0o700);
      const dirs = (await readdir(dataDir, { recursive: true, withFileTypes: true })).filter((f) => f.isDirectory());
      for (const d of dirs) expect(await mode(join(d.parentPath, d.name)) & 0o077, d.name).toBe(0);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
