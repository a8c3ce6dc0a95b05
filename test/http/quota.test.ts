// The daily API-call quota over HTTP (spec sections 7 and 8): headers on every counted answer, the
// 429 beyond limit + grace, what is not counted (401, 403, 304), the UTC-midnight reset, and 32
// clients racing across the limit against every counter store available.
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCounterStore } from '../../core/adapters/counter-store-memory.ts';
import { PLAN_LIMITS } from '../../core/accounts/plans.ts';
import type { Deps } from '../../core/deps.ts';
import { silentLogger } from '../../core/log.ts';
import type { CounterStore } from '../../core/ports/counter-store.ts';
import { createCallCounter } from '../../core/usage/count-call.ts';
import { secondsUntilUtcMidnight } from '../../core/usage/quota.ts';
import { apiKeyAuth } from '../../functions/http/api-key-auth.ts';
import { dailyQuota } from '../../functions/http/daily-quota.ts';
import type { AppEnv } from '../../functions/http/app-env.ts';
import { createApi } from '../../functions/http/create-api.ts';
import { respond, respondJson } from '../../functions/http/response-headers.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';
import { startTestApp, useTestApp, type TestApp, type TestProject } from '../support/test-app.ts';
import { startUpstashBridge, type UpstashBridge } from '../support/upstash-bridge.ts';

const t = useTestApp();

async function setDailyLimit(app: Pick<TestApp, 'admin'>, p: TestProject, limit: number | null) {
  const res = await app.admin('PATCH', `/accounts/${p.accountId}`, { daily_call_limit: limit });
  expect(res.status).toBe(200);
}

function quotaHeaders(res: Response) {
  const h = res.headers;
  return {
    limit: h.get('x-ratelimit-limit'),
    remaining: h.get('x-ratelimit-remaining'),
    reset: h.get('x-ratelimit-reset'),
    policy: h.get('ratelimit-policy'),
    rateLimit: h.get('ratelimit'),
  };
}

function expectQuotaHeaders(res: Response, limit: number, remaining: number) {
  const q = quotaHeaders(res);
  expect(q.limit).toBe(String(limit));
  expect(q.remaining).toBe(String(remaining));
  const reset = Number(q.reset);
  expect(Number.isInteger(reset) && reset >= 1 && reset <= 86_400).toBe(true);
  expect(q.policy).toBe(`"daily";q=${limit};w=86400`);
  expect(q.rateLimit).toBe(`"daily";r=${remaining};t=${reset}`);
}

const uuid = () => randomUUID();

describe('rate-limit headers', () => {
  it('every authenticated answer says where the caller stands, reset counted in seconds to midnight UTC', async () => {
    const p = await t.newProject('free');
    const first = await t.call(p.apiKey, 'GET', '/v1/keys');
    expect(first.status).toBe(200);
    expectQuotaHeaders(first, 5_000, 4_999);
    // Delta-seconds to the next UTC midnight, as computed at the time of the call.
    expect(Math.abs(Number(first.headers.get('x-ratelimit-reset')) - secondsUntilUtcMidnight(Date.now()))).toBeLessThanOrEqual(2);
    expectQuotaHeaders(await t.call(p.apiKey, 'GET', '/v1/keys'), 5_000, 4_998);
    // Other routes count against the same account's quota.
    expectQuotaHeaders(await t.call(p.apiKey, 'GET', '/v1/languages'), 5_000, 4_997);
  });

  it("X-RateLimit-Limit is the plan's daily limit, or the account's override from the admin API", async () => {
    for (const plan of ['solo', 'team', 'business'] as const) {
      const p = await t.newProject(plan);
      const res = await t.call(p.apiKey, 'GET', '/v1/keys');
      expectQuotaHeaders(res, PLAN_LIMITS[plan].dailyApiCalls!, PLAN_LIMITS[plan].dailyApiCalls! - 1);
    }
    const p = await t.newProject('solo');
    await setDailyLimit(t, p, 20);
    expectQuotaHeaders(await t.call(p.apiKey, 'GET', '/v1/keys'), 20, 19);
    await setDailyLimit(t, p, null);
    expectQuotaHeaders(await t.call(p.apiKey, 'GET', '/v1/keys'), 50_000, 50_000 - 2);
  });

  it('errors answered by handlers are counted and carry the headers: 404, 422, 409, 402', async () => {
    const p = await t.newProject('free');
    const answers = [
      await t.call(p.apiKey, 'DELETE', `/v1/keys/${uuid()}`),
      await t.call(p.apiKey, 'DELETE', '/v1/keys/not-a-uuid'),
      await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'dup.key' }),
      await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'dup.key' }),
      await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' }),
      await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'fr' }),
      await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'es' }),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 422, 201, 409, 201, 201, 402]);
    answers.forEach((res, i) => expectQuotaHeaders(res, 5_000, 5_000 - (i + 1)));
    for (const res of answers.filter((r) => r.status >= 400)) expect(typeof (await res.json()).detail).not.toBe('undefined');
  });

  it('401 and 403 are not counted and carry no rate-limit headers', async () => {
    const p = await t.newProject('free');
    const other = await t.newProject('free');
    const extra = await (await t.admin('POST', `/projects/${p.projectId}/api-keys`)).json();
    expect((await t.admin('DELETE', `/api-keys/${extra.id}`)).status).toBe(204);

    expectQuotaHeaders(await t.call(p.apiKey, 'GET', '/v1/keys'), 5_000, 4_999);
    const refused = [
      await t.call(extra.key, 'GET', '/v1/keys'),
      await t.call(undefined, 'GET', '/v1/keys'),
      await t.call(p.apiKey, 'GET', '/v1/keys', undefined, { 'X-Project-Id': other.projectId }),
    ];
    expect(refused.map((r) => r.status)).toEqual([401, 401, 403]);
    for (const res of refused) expect(Object.values(quotaHeaders(res))).toEqual([null, null, null, null, null]);
    expectQuotaHeaders(await t.call(p.apiKey, 'GET', '/v1/keys'), 5_000, 4_998);
  });
});

describe('beyond the daily limit', () => {
  it('serves limit + grace calls, then answers 429 with used versus allowed, Retry-After and X-RateLimit-Limit', async () => {
    const p = await t.newProject('team');
    await setDailyLimit(t, p, 10); // grace: 1
    for (let i = 1; i <= 11; i++) {
      const res = await t.call(p.apiKey, 'GET', '/v1/keys');
      expect(res.status, `call ${i}`).toBe(200);
      expectQuotaHeaders(res, 10, Math.max(0, 10 - i));
    }
    const refused = await t.call(p.apiKey, 'GET', '/v1/keys');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await refused.json();
    expect(body).toEqual({ detail: expect.any(String) });
    expect(body.detail).toMatch(/12 calls today, 10 allowed/);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('10');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Math.abs(retryAfter - secondsUntilUtcMidnight(Date.now()))).toBeLessThanOrEqual(2);
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(retryAfter));
    expectQuotaHeaders(refused, 10, 0);
    expect(refused.headers.get('x-request-id')).toBeTruthy();
    // Still refused: the count only resets at midnight UTC.
    expect((await t.call(p.apiKey, 'GET', '/v1/keys')).status).toBe(429);
  });

  it('a refused call never runs its handler, and a raised limit lets calls through at once', async () => {
    const p = await t.newProject('team');
    await setDailyLimit(t, p, 0);
    const refused = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'never.created' });
    expect(refused.status).toBe(429);
    expect((await refused.json()).detail).toMatch(/1 calls today, 0 allowed/);
    await setDailyLimit(t, p, null);
    const list = await t.call(p.apiKey, 'GET', '/v1/keys');
    expect(list.status).toBe(200);
    expect(JSON.stringify(await list.json())).not.toContain('never.created');
    // The refused call counted: remaining reflects both.
    expectQuotaHeaders(list, PLAN_LIMITS.team.dailyApiCalls!, PLAN_LIMITS.team.dailyApiCalls! - 2);
  });
});

describe('the UTC midnight reset', () => {
  it('a call at 23:59:59 is refused until the next day, whose first call starts from 1', async () => {
    let now = Date.parse('2031-05-17T23:59:58Z');
    const deps = t.runtime.deps;
    const app = createApi(
      { ...deps, calls: createCallCounter({ store: createMemoryCounterStore({ now: () => now }), log: silentLogger, now: () => now }) },
      allRouteGroups,
    );
    const call = (p: TestProject) => app.request('/v1/keys', { headers: { 'X-API-Key': p.apiKey } });
    const p = await t.newProject('team');
    await setDailyLimit(t, p, 2); // no grace under 10

    const first = await call(p);
    expect(first.status).toBe(200);
    expect(quotaHeaders(first)).toMatchObject({ remaining: '1', reset: '2' });
    now = Date.parse('2031-05-17T23:59:59Z');
    expect((await call(p)).status).toBe(200);
    const refused = await call(p);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');

    now = Date.parse('2031-05-18T00:00:01Z');
    const nextDay = await call(p);
    expect(nextDay.status).toBe(200);
    expectQuotaHeaders(nextDay, 2, 1);
    expect(nextDay.headers.get('x-ratelimit-reset')).toBe(String(86_400 - 1));
  });
});

/** A store that counts the round trips made through it. */
function spyStore(inner: CounterStore) {
  const ops = { increment: 0, get: 0 };
  const store: CounterStore = {
    increment: (...args) => {
      ops.increment++;
      return inner.increment(...args);
    },
    get: (key) => {
      ops.get++;
      return inner.get(key);
    },
    ping: () => inner.ping(),
    close: async () => {},
  };
  return { store, ops };
}

describe('conditional reads and round trips', () => {
  const ETAG = '"v1"';
  let app: ReturnType<typeof createApi>;
  let ops: { increment: number; get: number };

  // A resource that revalidates, as the cached endpoints do: the counting rules are the middleware's.
  function resourceRoutes() {
    return new Hono<AppEnv>().use('*', apiKeyAuth(), dailyQuota()).get('/', (c) => {
      c.header('ETag', ETAG);
      c.header('Cache-Control', 'private, max-age=60');
      c.header('Last-Modified', new Date(0).toUTCString());
      if (c.req.header('if-none-match') === ETAG) return c.body(null, 304);
      return c.json({ value: 'hello' });
    });
  }
  // The same resource answered the way the cached endpoints answer (respond(): one Response with
  // plain headers, built with the pending ones), so the 429 that replaces it must recover the
  // request's own headers from it.
  function fastResourceRoutes() {
    return new Hono<AppEnv>().use('*', apiKeyAuth(), dailyQuota()).get('/', (c) => {
      const headers = { ETag: ETAG, 'Cache-Control': 'private, max-age=60', 'Last-Modified': new Date(0).toUTCString() };
      if (c.req.header('if-none-match') === ETAG) return respond(c, null, 304, headers);
      return respondJson(c, { value: 'hello' }, 200, headers);
    });
  }

  // An inner router that authenticates again inside an outer one that already did.
  function nestedRoutes() {
    const inner = new Hono<AppEnv>().use('*', apiKeyAuth(), dailyQuota()).get('/', (c) => c.json({ ok: true }));
    return new Hono<AppEnv>().use('*', apiKeyAuth(), dailyQuota()).route('/inner', inner);
  }

  beforeAll(() => {
    const deps: Deps = t.runtime.deps;
    const spy = spyStore(deps.counters);
    ops = spy.ops;
    app = createApi({ ...deps, calls: createCallCounter({ store: spy.store, log: deps.log }) }, [
      { name: 'resource', prefix: '/v1/resource', routes: resourceRoutes() },
      { name: 'nested', prefix: '/v1/nested', routes: nestedRoutes() },
      { name: 'fast', prefix: '/v1/fast', routes: fastResourceRoutes() },
    ]);
  });

  const get = (p: TestProject, path: string, headers: Record<string, string> = {}) =>
    app.request(path, { headers: { 'X-API-Key': p.apiKey, ...headers } });

  it('a counted call costs exactly one store round trip', async () => {
    const p = await t.newProject('free');
    const before = { ...ops };
    const res = await get(p, '/v1/resource');
    expect(res.status).toBe(200);
    expect(ops).toEqual({ increment: before.increment + 1, get: before.get });
  });

  it('304 Not Modified is not counted (no increment), yet tells the caller where it stands', async () => {
    const p = await t.newProject('free');
    expectQuotaHeaders(await get(p, '/v1/resource'), 5_000, 4_999);
    const before = { ...ops };
    for (let i = 0; i < 3; i++) {
      const res = await get(p, '/v1/resource', { 'If-None-Match': ETAG });
      expect(res.status).toBe(304);
      expect(res.headers.get('etag')).toBe(ETAG);
      expectQuotaHeaders(res, 5_000, 4_999);
    }
    expect(ops.increment).toBe(before.increment);
    expect(ops.get).toBe(before.get + 3);
    // A revalidation that finds a changed resource is an ordinary counted call.
    // Its standing was read before the handler (so that a 304 is built in one go), then it counts.
    const changed = await get(p, '/v1/resource', { 'If-None-Match': '"stale"' });
    expect(changed.status).toBe(200);
    expectQuotaHeaders(changed, 5_000, 4_998);
    expect(ops).toEqual({ increment: before.increment + 1, get: before.get + 4 });
  });

  it('in the grace zone revalidations get their 304; beyond it (spec section 8) every call is a clean 429, a revalidation included', async () => {
    const p = await t.newProject('team');
    await setDailyLimit(t, p, 10); // grace: 1
    for (let i = 0; i < 11; i++) expect((await get(p, '/v1/resource')).status).toBe(200);
    const notModified = await get(p, '/v1/resource', { 'If-None-Match': ETAG });
    expect(notModified.status).toBe(304);
    expectQuotaHeaders(notModified, 10, 0);
    expect((await get(p, '/v1/resource')).status).toBe(429);
    const beyond = await get(p, '/v1/resource', { 'If-None-Match': ETAG });
    expect(beyond.status).toBe(429);
    expect(await beyond.json()).toEqual({ detail: expect.stringMatching(/13 calls today, 10 allowed/) });
    expectQuotaHeaders(beyond, 10, 0);

    await setDailyLimit(t, p, 1);
    const refused = await get(p, '/v1/resource', { 'If-None-Match': '"stale"' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ detail: expect.stringMatching(/14 calls today, 1 allowed/) });
    // The handler's validator and caching headers must not make the 429 look like the resource.
    expect(refused.headers.get('etag')).toBeNull();
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(refused.headers.get('last-modified')).toBeNull();
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-request-id')).toBeTruthy();
    expectQuotaHeaders(refused, 1, 0);
  });

  it('a 429 replacing an answer built in one go keeps the request id and CORS, not the representation', async () => {
    const p = await t.newProject('team');
    await setDailyLimit(t, p, 1);
    const served = await get(p, '/v1/fast', { 'X-Request-Id': 'req-fast-1' });
    expect(served.status).toBe(200);
    const cors = served.headers.get('access-control-allow-origin');
    const refused = await get(p, '/v1/fast', { 'If-None-Match': '"stale"', 'X-Request-Id': 'req-fast-2' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ detail: expect.stringMatching(/1 allowed/) });
    expect(refused.headers.get('x-request-id')).toBe('req-fast-2');
    expect(refused.headers.get('access-control-allow-origin')).toBe(cors);
    expect(refused.headers.get('etag')).toBeNull();
    expect(refused.headers.get('last-modified')).toBeNull();
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expectQuotaHeaders(refused, 1, 0);
  });

  it('If-None-Match on a method that cannot be answered 304 is counted before the handler', async () => {
    const p = await t.newProject('team');
    await setDailyLimit(t, p, 0);
    const refused = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'conditional.write' }, { 'If-None-Match': '*' });
    expect(refused.status).toBe(429);
    await setDailyLimit(t, p, null);
    expect(JSON.stringify(await (await t.call(p.apiKey, 'GET', '/v1/keys')).json())).not.toContain('conditional.write');
  });

  it('a router nested in another that authenticated counts the call once', async () => {
    const p = await t.newProject('free');
    const before = ops.increment;
    const res = await get(p, '/v1/nested/inner');
    expect(res.status).toBe(200);
    expectQuotaHeaders(res, 5_000, 4_999);
    expect(ops.increment).toBe(before + 1);
  });
});

// 32 clients racing across the limit: never more than limit + grace through, never a refusal below
// the limit. Memory always; Redis and Upstash (through the REST bridge) when REDIS_URL is set.
const redisUrl = process.env.REDIS_URL ?? '';
const stores: { name: string; enabled: boolean; env: () => Promise<{ env: Record<string, string>; close?: () => Promise<void> }> }[] = [
  { name: 'memory', enabled: true, env: async () => ({ env: { REDIS_URL: '' } }) },
  { name: 'redis', enabled: Boolean(redisUrl), env: async () => ({ env: { REDIS_URL: redisUrl } }) },
  {
    name: 'upstash',
    enabled: Boolean(redisUrl),
    env: async () => {
      const token = randomUUID();
      const bridge: UpstashBridge = await startUpstashBridge({ redisUrl, token });
      return { env: { REDIS_URL: '', UPSTASH_REDIS_REST_URL: bridge.url, UPSTASH_REDIS_REST_TOKEN: token }, close: bridge.close };
    },
  },
];

describe.each(stores)('32 concurrent clients, $name counter store', ({ enabled, env }) => {
  let app: Awaited<ReturnType<typeof startTestApp>> | undefined;
  let closeStore: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (!enabled) return;
    const setup = await env();
    closeStore = setup.close;
    app = await startTestApp({ env: setup.env });
  });
  afterAll(async () => {
    await app?.close();
    await closeStore?.();
  });

  const race = async (p: TestProject) =>
    Promise.all(Array.from({ length: 32 }, () => app!.call(p.apiKey, 'GET', '/v1/keys')));

  it.skipIf(!enabled)('with a limit of 20 (grace 2): exactly 22 served, 10 refused', async () => {
    const p = await app!.newProject('team');
    await setDailyLimit(app!, p, 20);
    const answers = await race(p);
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(22);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const served = answers.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(served.toSorted((a, b) => b - a)).toEqual([...Array.from({ length: 20 }, (_, i) => 19 - i), 0, 0]);
  });

  it.skipIf(!enabled)('with a limit of 40: none refused', async () => {
    const p = await app!.newProject('team');
    await setDailyLimit(app!, p, 40);
    const answers = await race(p);
    expect(answers.map((r) => r.status)).toEqual(Array(32).fill(200));
  });
});
