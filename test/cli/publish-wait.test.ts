// `tms publish --wait`: every status read counts against the daily API call quota the project's
// apps share, so the CLI reads GET /v1/cache/status with waits that double (not every 250 ms), and
// a build the server reports failed ends the wait at once with the server's message (exit 1).
import { createServer } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_FAILED_MESSAGE } from '../../core/cache/build-state.ts';
import { runTms } from './support/run-tms.ts';
import { serveTestApp } from './support/served-app.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-publish-'));
  dirs.push(dir);
  return dir;
}

/** A repository with a tms.config.json (TMS_SERVER names the server). */
async function repository(): Promise<string> {
  const dir = await tempDir();
  await writeFile(join(dir, 'tms.config.json'), JSON.stringify({ server: 'http://127.0.0.1:1', sourceLanguage: 'en', files: [{ path: 'l/{language}.json', format: 'json' }] }));
  return dir;
}

describe('tms publish --wait', () => {
  it('reads the status with growing waits: a build of two seconds costs a few reads, not one every 250 ms', async () => {
    // A server whose build takes two seconds from the request; it counts the status reads.
    let requestedAt = 0;
    let readsAfterRequest = 0;
    const stub = createServer((req, res) => {
      if (req.method === 'POST') requestedAt = Date.now();
      else if (requestedAt) readsAfterRequest++;
      const built = requestedAt !== 0 && Date.now() - requestedAt >= 2000;
      const body =
        req.method === 'POST'
          ? { project_id: 'p', status: 'queued', message: 'queued' }
          : { project_id: 'p', ready: built, last_rebuilt_at: built ? '2026-11-26T10:00:00.000Z' : null, pending: requestedAt !== 0 && !built, build_state: built ? 'idle' : 'building', failed_at: null, last_error: null };
      res.writeHead(req.method === 'POST' ? 202 : 200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', () => r()));
    try {
      const r = await runTms(['publish', '--wait', '--json'], {
        cwd: await repository(),
        apiKey: 'key_live_' + 'A'.repeat(40),
        env: { TMS_SERVER: `http://127.0.0.1:${(stub.address() as AddressInfo).port}` },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ ready: true, last_rebuilt_at: '2026-11-26T10:00:00.000Z' });
      // Waits of 0.5, 1 and 2 s: four reads. A read every 250 ms made nine or more.
      expect(readsAfterRequest).toBeGreaterThanOrEqual(2);
      expect(readsAfterRequest).toBeLessThanOrEqual(5);
    } finally {
      await new Promise<void>((r) => stub.close(() => r()));
    }
  });

  it('a build the server reports failed ends the wait at once: exit 1 with the server\'s last_error', async () => {
    // A real server whose builds fail: its object store's folder is a file (as in
    // test/local/rebuild-durability.test.ts), which stops every build, even for root.
    const dataDir = await tempDir();
    const served = await serveTestApp({ env: { TMS_DATA_DIR: dataDir } });
    try {
      const p = await served.t.newProject('team');
      expect((await served.t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
      await rm(join(dataDir, 'objects'), { recursive: true, force: true });
      await writeFile(join(dataDir, 'objects'), 'not a directory');
      const dir = await repository();
      // A timeout far longer than the failure takes: the wait ends on the failure, not on it.
      const r = await runTms(['publish', '--wait', '--timeout', '15', '--json'], { cwd: dir, apiKey: p.apiKey, env: { TMS_SERVER: served.base } });
      expect(r.code, r.stderr).toBe(1);
      const error = JSON.parse(r.stdout);
      expect(error).toMatchObject({ exit_code: 1, error: expect.stringContaining('the rebuild failed on the server') });
      expect(error.error).toContain(BUILD_FAILED_MESSAGE);
      expect(r.stderr).toContain(BUILD_FAILED_MESSAGE);
      expect(r.stderr).not.toContain('not ready after');
    } finally {
      await served.close();
    }
  }, 60_000);
});
