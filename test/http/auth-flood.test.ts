// Unauthenticated load must not reach the database: a well-formed key that matched nothing is
// refused from memory for a while, and past AUTH_FAILURES_PER_MINUTE failures an address gets 429
// with Retry-After instead of a lookup. A real key from another address is unaffected, and so is
// one already verified from that address; what needs no lookup is still a 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeyVerifier } from '../../core/auth/api-key-verifier.ts';
import { createMemoryLogger } from '../../core/log.ts';
import type { Sql } from '../../core/db/client.ts';
import { createApi } from '../../functions/http/create-api.ts';
import { forwardedAddress } from '../../functions/http/client-address.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';
import { startTestApp, type TestProject } from '../support/test-app.ts';

const UNKNOWN = 'key_live_' + 'Q'.repeat(40);

/** The real client, counting the statements sent through it. */
function counting(sql: Sql): { sql: Sql; count: () => number } {
  let n = 0;
  const proxy = new Proxy(sql, {
    apply(target, self, args) {
      n++;
      return Reflect.apply(target, self, args);
    },
  });
  return { sql: proxy, count: () => n };
}

describe('unknown keys', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('a key that matched nothing costs one lookup, then none until the negative cache expires', async () => {
    let clock = 1_000_000;
    const { sql, count } = counting(t.runtime.deps.sql);
    const verifier = createApiKeyVerifier({ sql, log: createMemoryLogger(), ttlMs: 30_000, negativeTtlMs: 10_000, now: () => clock });
    for (let i = 0; i < 200; i++) await expect(verifier.verify(UNKNOWN)).rejects.toMatchObject({ code: 'unauthorized' });
    expect(count()).toBe(1);
    clock += 10_001;
    await expect(verifier.verify(UNKNOWN)).rejects.toMatchObject({ code: 'unauthorized' });
    expect(count()).toBe(2);
    // A real key is looked up and accepted as ever.
    const p = await t.newProject('team');
    await expect(verifier.verify(p.apiKey)).resolves.toMatchObject({ projectId: p.projectId });
  });
});

describe('failed authentications per address', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let p: TestProject;
  let address = '203.0.113.9';
  let app: ReturnType<typeof createApi>;
  beforeAll(async () => {
    t = await startTestApp({ env: { AUTH_FAILURES_PER_MINUTE: '5' } });
    p = await t.newProject('team');
    app = createApi(t.runtime.deps, allRouteGroups, { clientAddress: () => address });
  });
  afterAll(async () => t?.close());

  const get = (key: string) => app.request('/v1/keys', { headers: { 'X-API-Key': key } });

  it('answers 429 with Retry-After past the limit, before looking anything up; other addresses go on', async () => {
    address = '203.0.113.9';
    for (let i = 0; i < 5; i++) expect((await get(`key_live_${String(i).repeat(40)}`)).status).toBe(401);
    const refused = await get(UNKNOWN);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(await refused.json()).toEqual({ detail: expect.stringMatching(/failed authentications/) });
    // A valid key this process has not verified yet waits too: it would take a lookup.
    expect((await get(p.apiKey)).status).toBe(429);

    address = '198.51.100.4';
    expect((await get(p.apiKey)).status).toBe(200);

    // What needs no lookup is answered as the spec says, whatever the address did: the key verified
    // a moment ago passes (a team behind the flood's NAT keeps working), a missing or malformed key
    // and one just refused are 401s.
    address = '203.0.113.9';
    expect((await get(p.apiKey)).status).toBe(200);
    for (const key of ['', 'not-a-key', 'key_live_0000000000000000000000000000000000000000']) {
      const res = await get(key);
      expect(res.status, key).toBe(401);
      expect(await res.json()).toEqual({ detail: 'Invalid API key' });
    }
  });
});

describe('the client address behind reverse proxies', () => {
  it('believes only the entries trusted proxies added', () => {
    expect(forwardedAddress('10.0.0.2', '1.2.3.4', 0)).toBe('10.0.0.2');
    expect(forwardedAddress('10.0.0.2', 'spoofed, 198.51.100.7', 1)).toBe('198.51.100.7');
    expect(forwardedAddress('10.0.0.2', 'spoofed, 198.51.100.7, 10.0.0.9', 2)).toBe('198.51.100.7');
    expect(forwardedAddress('10.0.0.2', undefined, 1)).toBe('10.0.0.2');
  });
});

describe('lookups in flight, a team behind a flooded address, IPv6 blocks', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let p: TestProject;
  const madeUp = (i: number) => 'key_live_' + String(i).padStart(6, '0') + 'X'.repeat(34);
  beforeAll(async () => {
    t = await startTestApp({ env: { AUTH_FAILURES_PER_MINUTE: '5' } });
    p = await t.newProject('team');
  });
  afterAll(async () => t?.close());

  it('made-up keys sent at once count from the start of their lookups: five are looked up, the rest get 429', async () => {
    const { sql, count } = counting(t.runtime.deps.sql);
    const verifier = createApiKeyVerifier({ sql, log: createMemoryLogger(), ttlMs: 30_000, failuresPerMinute: 5 });
    const results = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => verifier.verify(madeUp(i), { address: '203.0.113.50' })));
    const codes = results.map((r) => (r.status === 'rejected' ? (r.reason as { code: string }).code : 'ok'));
    expect({ unauthorized: codes.filter((c) => c === 'unauthorized').length, rateLimited: codes.filter((c) => c === 'rate_limited').length, lookups: count() }).toEqual({
      unauthorized: 5,
      rateLimited: 95,
      lookups: 5,
    });
  });

  it('over HTTP too: 100 requests at once from one address, 5 answered 401 and 95 answered 429', async () => {
    const app = createApi(t.runtime.deps, allRouteGroups, { clientAddress: () => '203.0.113.51' });
    const statuses = (await Promise.all(Array.from({ length: 100 }, (_, i) => app.request('/v1/keys', { headers: { 'X-API-Key': madeUp(1000 + i) } })))).map((r) => r.status);
    expect({ '401': statuses.filter((s) => s === 401).length, '429': statuses.filter((s) => s === 429).length }).toEqual({ '401': 5, '429': 95 });
  });

  it('a valid key sent twenty times at once is one lookup, and no failure', async () => {
    const { sql, count } = counting(t.runtime.deps.sql);
    const verifier = createApiKeyVerifier({ sql, log: createMemoryLogger(), ttlMs: 0, failuresPerMinute: 5 });
    // No cache (TTL 0): twenty requests at once share one lookup, counted once and taken back; a
    // made-up key then still gets its 401, not 429.
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => verifier.verify(p.apiKey, { address: '203.0.113.53' })));
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(count()).toBeLessThanOrEqual(2); // the lookup, and at most the key's last-use write
    await expect(verifier.verify(madeUp(4000), { address: '203.0.113.53' })).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it("a team's valid key behind a flooded address keeps working after its cache entry's time (API_KEY_CACHE_SECONDS)", async () => {
    let clock = 5_000_000;
    const verifier = createApiKeyVerifier({ sql: t.runtime.deps.sql, log: createMemoryLogger(), ttlMs: 30_000, failuresPerMinute: 5, now: () => clock });
    const nat = '198.51.100.77';
    await expect(verifier.verify(p.apiKey, { address: nat })).resolves.toMatchObject({ projectId: p.projectId });
    for (let i = 0; i < 6; i++) await verifier.verify(madeUp(2000 + i), { address: nat }).catch(() => {});
    await expect(verifier.verify(madeUp(2100), { address: nat })).rejects.toMatchObject({ code: 'rate_limited' });
    // 31 s later, in the same failure window: the key verified before is looked up again, and passes.
    clock += 31_000;
    await expect(verifier.verify(p.apiKey, { address: nat })).resolves.toMatchObject({ projectId: p.projectId });
    await expect(verifier.verify(madeUp(2101), { address: nat })).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('an IPv6 client is counted by its /64, and an IPv4-mapped address as its IPv4 address', async () => {
    const app = createApi(t.runtime.deps, allRouteGroups, { clientAddress: (c) => c.req.header('x-test-peer') });
    const get = (key: string, peer: string) => app.request('/v1/keys', { headers: { 'X-API-Key': key, 'x-test-peer': peer } });
    for (let i = 0; i < 5; i++) expect((await get(madeUp(3000 + i), '2001:db8:1:2::1')).status).toBe(401);
    expect((await get(madeUp(3100), '2001:db8:1:2::1')).status).toBe(429);
    expect((await get(madeUp(3101), '2001:db8:1:2:ffff::2')).status).toBe(429);
    // Another /64 is another client.
    expect((await get(madeUp(3102), '2001:db8:1:3::1')).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await get(madeUp(3200 + i), '192.0.2.80')).status).toBe(401);
    expect((await get(madeUp(3300), '::ffff:192.0.2.80')).status).toBe(429);
  });
});
