// The database going away and coming back, behind a proxy the test cuts and restores: calls that
// need it answer 500 in the envelope (never hang), /health names it, and the same app serves again
// once it returns, with no restart (docs/rate-limits.md, "When the database is unreachable").
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../../core/log.ts';
import { startProxiedDatabase, type ProxiedDatabase } from '../support/proxied-database.ts';
import { startTestApp } from '../support/test-app.ts';

type App = Awaited<ReturnType<typeof startTestApp>>;

describe('database cut off and restored', () => {
  const log = createMemoryLogger();
  let db: ProxiedDatabase;
  let app: App;
  beforeAll(async () => {
    db = await startProxiedDatabase();
    app = await startTestApp({ log, env: db.env });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  async function timed(request: () => Response | Promise<Response>) {
    const started = performance.now();
    const res = await request();
    return { res, ms: performance.now() - started };
  }

  it('answers 500 with a detail while it is gone, 503 db: error on /health, and recovers by itself', async () => {
    const p = await app.newProject('team');
    // A second key that this process has never verified: its caller cannot be served from cache.
    const unseen = (await (await app.admin('POST', `/projects/${p.projectId}/api-keys`)).json()).key as string;
    expect((await app.call(p.apiKey, 'GET', '/v1/keys')).status).toBe(200);
    expect(db.proxy.openConnections).toBeGreaterThan(0);

    await db.proxy.cut();

    for (const key of [p.apiKey, unseen]) {
      const { res, ms } = await timed(() => app.call(key, 'GET', '/v1/keys'));
      expect(res.status, key === unseen ? 'unseen key' : 'cached key').toBe(500);
      const body = await res.json();
      expect(body).toEqual({ detail: expect.any(String) });
      expect(body.detail).not.toMatch(/ECONN|postgres|127\.0\.0\.1/i);
      expect(ms).toBeLessThan(3_000);
    }
    // A write fails the same way, and nothing is half written.
    expect((await app.call(p.apiKey, 'POST', '/v1/keys', { key: 'during.outage' })).status).toBe(500);
    expect(log.lines).toContainEqual(expect.objectContaining({ level: 'error', msg: 'dependency unreachable' }));

    const health = await timed(() => app.app.request('/health'));
    expect(health.res.status).toBe(503);
    expect(await health.res.json()).toEqual({ status: 'degraded', db: 'error', redis: 'ok' });
    expect(health.ms).toBeLessThan(2_000);

    await db.proxy.restore();

    // No restart: the pool reconnects on the next query.
    await vi.waitFor(
      async () => {
        expect((await app.call(p.apiKey, 'GET', '/v1/keys')).status).toBe(200);
      },
      { timeout: 10_000, interval: 200 },
    );
    expect((await app.call(unseen, 'GET', '/v1/keys')).status).toBe(200);
    const healthy = await app.app.request('/health');
    expect(healthy.status).toBe(200);
    expect(await healthy.json()).toEqual({ status: 'ok', db: 'ok', redis: 'ok' });
    const created = await app.call(p.apiKey, 'POST', '/v1/keys', { key: 'after.outage' });
    expect(created.status).toBe(201);
    const keys = JSON.stringify(await (await app.call(p.apiKey, 'GET', '/v1/keys')).json());
    expect(keys).toContain('after.outage');
    expect(keys).not.toContain('during.outage');
  });
});
