// `npm start` on a disk below TMS_DATA_DIR_MIN_FREE_MB: the embedded database refuses writes (PGlite
// would hang for good on a full disk: core/db/disk-guard.ts), says so in the log and in each
// refused answer, keeps serving reads, and /health says degraded. The floor is set above any disk's
// free space here, so this runs on any machine; the real full disk was tried by hand (a tmpfs,
// docs/operations.md). Always the embedded database: the guard is its own.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { READ_ONLY_MESSAGE } from '../../core/db/errors.ts';
import { killLocalServers, startLocalServer, ROOT } from './local-server-process.ts';
import { ADMIN_TOKEN, call, newProject } from './durable-place.ts';
import { spawn } from 'node:child_process';

const dirs: string[] = [];
afterAll(async () => {
  killLocalServers();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-disk-'));
  dirs.push(dir);
  return dir;
}

/** Above any free space a test machine has (16 TiB, the setting's maximum). */
const UNREACHABLE_FLOOR = String(16 * 1024 * 1024);

describe('npm start below the free-space floor', () => {
  it('refuses every write with the reason, keeps reads, reports degraded; and takes writes again with space', async () => {
    const env = { TMS_DATA_DIR: await dataDir(), PORT: '0', TMS_ADMIN_TOKEN: ADMIN_TOKEN, LOG_REQUESTS: 'false' };
    const first = await startLocalServer(env);
    const p = await newProject(first, 3);
    await first.stop();

    const low = await startLocalServer({ ...env, TMS_DATA_DIR_MIN_FREE_MB: UNREACHABLE_FLOOR });
    expect(low.output()).toMatch(/"level":"error","msg":"disk nearly full: writes refused until space is freed","dir":"[^"]+pgdata","free_mb":\d+,"min_free_mb":16777216/);
    const keys = await (await call(low, p, 'GET', '/v1/keys')).json();
    expect(keys.count).toBe(3);
    const live = await call(low, p, 'GET', '/v1/translations/de/group1/group1.key1');
    expect(live.status).toBe(200);
    expect((await live.json()).value).toBe('Wert 1');

    const writes: [string, string, unknown][] = [
      ['POST', '/v1/keys', { key: 'home.new' }],
      ['PUT', `/v1/keys/${keys.keys[0].id}/translations/de`, { value: 'Neu', status: 'approved' }],
      ['DELETE', `/v1/keys/${keys.keys[0].id}`, undefined],
      ['POST', '/v1/languages', { code: 'fr' }],
      ['POST', '/v1/import/de?status=approved', JSON.stringify({ 'home.imported': 'Importiert' })],
      ['POST', '/v1/cache/rebuild', undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await call(low, p, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(500);
      expect(await res.json(), `${method} ${path}`).toEqual({ detail: READ_ONLY_MESSAGE });
    }
    const health = await fetch(`${low.url}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'degraded', db: 'error', redis: 'ok' });
    // Nothing of the refused writes was kept.
    expect((await (await call(low, p, 'GET', '/v1/keys')).json()).count).toBe(3);
    expect((await (await call(low, p, 'GET', '/v1/languages')).json()).count).toBe(1);
    // The background workers say it once, not at every poll (2 s apart): give them two polls.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(low.output().match(/"msg":"rebuild queue poll failed"/g)?.length ?? 0).toBeLessThanOrEqual(1);
    expect(low.output().match(/"msg":"webhook worker poll failed"/g)?.length ?? 0).toBeLessThanOrEqual(1);
    // It still stops as asked.
    await low.stop();
    expect(await low.exited()).toBe(0);

    // Space again (the default floor): everything works, the refused writes never happened.
    const again = await startLocalServer(env);
    expect((await call(again, p, 'POST', '/v1/keys', { key: 'home.new' })).status).toBe(201);
    expect((await fetch(`${again.url}/health`)).status).toBe(200);
    await again.stop();
  }, 300_000);

  it('does not create a new database below the floor: one line saying why, exit 1', async () => {
    const dir = await dataDir();
    const child = spawn(process.execPath, ['--import', 'tsx', 'functions/local.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TMS_DATA_DIR: join(dir, 'new'), PORT: '0', TMS_DATA_DIR_MIN_FREE_MB: UNREACHABLE_FLOOR },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Not enough free disk space to create the embedded database: \d+ MB free under .+, and the embedded database refuses writes below 16777216 MB \(TMS_DATA_DIR_MIN_FREE_MB\)\.\n  Free some space \(or lower TMS_DATA_DIR_MIN_FREE_MB\), then start again\.\n$/);
  }, 60_000);
});
