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
