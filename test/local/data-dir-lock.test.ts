// Two processes on one embedded data directory: PGlite takes no lock of its own, and a second
// `npm start` (another PORT) or an `npm run migrate` beside a running server opened the same files.
// Now the second says who holds the directory and exits 1, the first goes on unharmed, and a server
// killed with -9 leaves nothing that stops the next start.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killLocalServers, ROOT, startLocalServer } from './local-server-process.ts';
import { ADMIN_TOKEN, call, newProject } from './durable-place.ts';

let dir = '';
afterAll(async () => {
  killLocalServers();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs an npm script's entry point as a second process on the same data dir; its exit code and stderr. */
async function second(entry: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMS_DATA_DIR: dir, PORT: '0', TMS_DATA_DIR_MIN_FREE_MB: '64' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

describe('one process per embedded data directory', () => {
  it('refuses a second npm start and npm run migrate on a directory in use; a killed server does not block the next', async () => {
    dir = await mkdtemp(join(tmpdir(), 'tms-two-'));
    const env = { TMS_DATA_DIR: dir, PORT: '0', TMS_ADMIN_TOKEN: ADMIN_TOKEN, LOG_REQUESTS: 'false' };
    const first = await startLocalServer(env);
    const p = await newProject(first, 2);
    const pid = Number((await readFile(join(dir, 'pgdata.lock'), 'utf8')).split('\n')[0]);
    const inUse =
      `The embedded database in ${join(dir, 'pgdata')} is in use by process ${pid} (another npm start or npm run migrate on the same TMS_DATA_DIR).\n` +
      `  Stop that process first. If no such process is running, remove ${join(dir, 'pgdata.lock')} and start again.\n`;
    for (const entry of ['functions/local.ts', 'functions/migrate.ts']) {
      const { code, stderr } = await second(entry);
      expect(code, entry).toBe(1);
      expect(stderr, entry).toBe(inUse);
    }
    // The first server never noticed.
    expect((await call(first, p, 'POST', '/v1/keys', { key: 'home.after' })).status).toBe(201);
    expect((await (await call(first, p, 'GET', '/v1/keys')).json()).count).toBe(3);

    first.kill('SIGKILL');
    await first.exited();
    const next = await startLocalServer(env);
    expect((await (await call(next, p, 'GET', '/v1/keys')).json()).count).toBe(3);
    await next.stop();
    expect(await next.exited()).toBe(0);
    // A clean stop leaves no lock behind.
    await expect(readFile(join(dir, 'pgdata.lock'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  }, 120_000);
});
