// The database cut off under load and restored (a TCP proxy in front of it): with six clients
// calling all along, every call made while it is gone fails within about 2 s with the 500 envelope,
// and after it is back the first call succeeds within 1 s. postgres.js's default reconnect backoff
// grows to 20 s, which held calls and recovery for 10-19 s; core/db/client.ts bounds it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../core/log.ts';
import { startProxiedDatabase, type ProxiedDatabase } from '../support/proxied-database.ts';
import { startTestApp, type TestProject } from '../support/test-app.ts';

const CLIENTS = 6;
const OUTAGE_MS = 4_000;

// The embedded database lives inside the service's own process and cannot become unreachable while
// it runs; cut behind a proxy, pglite-socket keeps the dropped connection's session for about 15 s,
// an artifact of the test rig rather than of the service. So this runs on real PostgreSQL.
describe.skipIf(!process.env.DATABASE_URL)('database outage under concurrent load (real PostgreSQL)', () => {
  let db: ProxiedDatabase;
  const log = createMemoryLogger();
  let app: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    db = await startProxiedDatabase();
    app = await startTestApp({ log, env: db.env });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it('fails fast while it is gone and recovers within a second of its return', async () => {
    const projects: TestProject[] = [];
    for (let i = 0; i < CLIENTS; i++) projects.push(await app.newProject('team'));
    type Call = { started: number; ms: number; status: number };
    const calls: Call[] = [];
    let running = true;
    // Each client writes and reads in a loop, as a busy service's callers would.
    const clients = projects.map(async (p, i) => {
      for (let n = 0; running; n++) {
        const started = performance.now();
        const res = n % 2 ? await app.call(p.apiKey, 'GET', '/v1/keys') : await app.call(p.apiKey, 'POST', '/v1/keys', { key: `k.${i}.${n}` });
        if (res.status >= 500) expect(Object.keys(await res.json())).toEqual(['detail']);
        else await res.arrayBuffer();
        calls.push({ started, ms: performance.now() - started, status: res.status });
      }
    });
    await new Promise((r) => setTimeout(r, 500));
    const cutAt = performance.now();
    await db.proxy.cut();
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    const restoredAt = performance.now();
    await db.proxy.restore();
    await new Promise((r) => setTimeout(r, 4_000));
    running = false;
    await Promise.all(clients);

    const during = calls.filter((c) => c.started >= cutAt && c.started + c.ms <= restoredAt);
    expect(during.length).toBeGreaterThan(CLIENTS);
    expect(during.every((c) => c.status === 500)).toBe(true);
    const slowest = Math.max(...during.map((c) => c.ms));
    const firstSuccess = Math.min(...calls.filter((c) => c.started >= restoredAt && c.status < 500).map((c) => c.started + c.ms));
    console.log(`outage: ${during.length} calls failed, slowest ${Math.round(slowest)} ms; first success ${Math.round(firstSuccess - restoredAt)} ms after restore`);
    expect(slowest).toBeLessThan(2_500);
    expect(firstSuccess - restoredAt).toBeLessThan(1_000);
    // Soon after its return the pool is back. On a busy machine a reconnect may still hit the 1 s
    // connect timeout this rig sets (proxied-database.ts) once, so a rare later failure is tolerated.
    const later = calls.filter((c) => c.started >= restoredAt + 1_000);
    expect(later.length).toBeGreaterThan(CLIENTS * 5);
    expect(later.filter((c) => c.status >= 500).length / later.length).toBeLessThan(0.1);
  }, 60_000);
});
