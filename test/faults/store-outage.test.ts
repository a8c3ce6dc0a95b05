// The counter store going away: API calls keep working with the quota counted per process, the
// outage is logged once, /health says degraded; when the store returns, health recovers and counting
// goes back to the store by itself (docs/rate-limits.md, "When the counter store is unreachable").
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../../core/log.ts';
import { DEFAULT_STORE_RETRY_INTERVAL_MS, callCounterKey } from '../../core/usage/count-call.ts';
import { closedPort, startSilentServer, startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const OUTAGE = 'counter store unreachable: counting API calls per process until it answers';
const RECOVERY = 'counter store reachable again: API calls counted in the store';

type App = Awaited<ReturnType<typeof startTestApp>>;

const remaining = (res: Response) => Number(res.headers.get('x-ratelimit-remaining'));

async function timedCall(app: TestApp, apiKey: string) {
  const started = performance.now();
  const res = await app.call(apiKey, 'GET', '/v1/keys');
  return { res, ms: performance.now() - started };
}

describe('counter store unreachable from the start (nothing listens on its port)', () => {
  const log = createMemoryLogger();
  let app: App;
  beforeAll(async () => {
    app = await startTestApp({ log, env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('API calls still answer, promptly, counted per process; the outage is one warning', async () => {
    const p = await app.newProject('free');
    for (let i = 1; i <= 5; i++) {
      const { res, ms } = await timedCall(app, p.apiKey);
      expect(res.status).toBe(200);
      expect(remaining(res)).toBe(5_000 - i);
      expect(ms).toBeLessThan(1_000);
    }
    expect(log.lines.filter((l) => l.msg === OUTAGE)).toEqual([expect.objectContaining({ level: 'warn', error: expect.any(String) })]);
  });

  it('still enforces the quota, per process', async () => {
    const p = await app.newProject('team');
    expect((await app.admin('PATCH', `/accounts/${p.accountId}`, { daily_call_limit: 1 })).status).toBe(200);
    expect((await app.call(p.apiKey, 'GET', '/v1/keys')).status).toBe(200);
    expect((await app.call(p.apiKey, 'GET', '/v1/keys')).status).toBe(429);
  });

  it('/health answers 503 {status: degraded, db: ok, redis: error}', async () => {
    const res = await app.app.request('/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'degraded', db: 'ok', redis: 'error' });
    expect(log.lines.filter((l) => l.msg === OUTAGE)).toHaveLength(1);
  });
});

describe('counter store that accepts connections and never answers', () => {
  const log = createMemoryLogger();
  let app: App;
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  beforeAll(async () => {
    silent = await startSilentServer();
    app = await startTestApp({ log, env: { REDIS_URL: `redis://127.0.0.1:${silent.port}` } });
  });
  afterAll(async () => {
    await app?.close();
    await silent?.close();
  });

  it('never holds API calls: each answers within a second, counted per process', async () => {
    const p = await app.newProject('free');
    for (let i = 1; i <= 3; i++) {
      const { res, ms } = await timedCall(app, p.apiKey);
      expect(res.status).toBe(200);
      expect(remaining(res)).toBe(5_000 - i);
      expect(ms).toBeLessThan(1_000);
    }
    expect(log.lines.filter((l) => l.msg === OUTAGE)).toHaveLength(1);
  });
});

// A real Redis behind a proxy that the test cuts and restores.
const redisUrl = process.env.REDIS_URL ?? '';

describe.skipIf(!redisUrl)('real Redis cut off and restored', () => {
  const log = createMemoryLogger();
  let app: App;
  let proxy: TcpProxy;
  beforeAll(async () => {
    const direct = new URL(redisUrl);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 6379) });
    const proxied = new URL(redisUrl);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    app = await startTestApp({ log, env: { REDIS_URL: proxied.toString() } });
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
  });

  it('keeps serving through the outage and goes back to the shared count when Redis returns', async () => {
    const p = await app.newProject('free');
    const key = () => callCounterKey(p.accountId, Date.now());
    for (let i = 1; i <= 3; i++) expect(remaining((await timedCall(app, p.apiKey)).res)).toBe(5_000 - i);
    expect(await app.runtime.deps.counters.get(key())).toBe(3);
    expect((await app.app.request('/health')).status).toBe(200);

    await proxy.cut();
    // The process counts on its own from zero: the shared count is out of reach.
    for (let i = 1; i <= 2; i++) {
      const { res, ms } = await timedCall(app, p.apiKey);
      expect(res.status).toBe(200);
      expect(remaining(res)).toBe(5_000 - i);
      expect(ms).toBeLessThan(1_000);
    }
    expect(log.lines.filter((l) => l.msg === OUTAGE)).toHaveLength(1);
    const degraded = await app.app.request('/health');
    expect(degraded.status).toBe(503);
    expect(await degraded.json()).toEqual({ status: 'degraded', db: 'ok', redis: 'error' });

    await proxy.restore();
    // The client reconnects on its own backoff (capped at 1 s): nothing here prods it.
    await vi.waitFor(
      async () => {
        const res = await app.app.request('/health');
        expect(await res.json()).toEqual({ status: 'ok', db: 'ok', redis: 'ok' });
      },
      { timeout: 10_000, interval: 100 },
    );
    // Past the retry interval the next call tries the store again, and counts there.
    await sleep(DEFAULT_STORE_RETRY_INTERVAL_MS + 200);
    const back = await app.call(p.apiKey, 'GET', '/v1/keys');
    expect(back.status).toBe(200);
    expect(remaining(back)).toBe(5_000 - 4);
    expect(await app.runtime.deps.counters.get(key())).toBe(4);
    expect(log.lines.filter((l) => l.msg === OUTAGE)).toHaveLength(1);
    expect(log.lines.filter((l) => l.msg === RECOVERY)).toEqual([expect.objectContaining({ level: 'info' })]);
  });
});
