// With CORS_ORIGINS a list, a delivery key's own origins get Access-Control-Allow-Origin only once
// the key verified. A refusal before that on the cached reads (whose preflight any origin already
// gets) carries the request's Origin too, so a page can read a 401 (revoked, mistyped) or the
// failed-auth 429 instead of a network error; everything else stays as the server's list says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../functions/http/create-api.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';
import { startTestApp, type TestProject } from '../support/test-app.ts';
import { rebuild, seed } from '../support/cache-helpers.ts';

type Created = { id: string; key: string };
const SHOP = 'https://shop.example';
const LISTED = 'https://console.example';
const OTHER = 'https://elsewhere.example';
const madeUp = (i: number) => 'delivery_' + String(i).padStart(6, '0') + 'Z'.repeat(34);

describe('CORS on refusals of the cached reads, CORS_ORIGINS a list', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let p: TestProject;
  beforeAll(async () => {
    t = await startTestApp({ env: { CORS_ORIGINS: LISTED, AUTH_FAILURES_PER_MINUTE: '3' } });
    p = await t.newProject('team');
    await seed(t, p, { 'home.title': { de: ['Hallo', 'approved'] } });
    await rebuild(t, p);
  });
  afterAll(async () => t?.close());

  const expectReadableBy = (res: Response, origin: string) => {
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/(^|,)\s*origin\s*(,|$)/i);
  };

  it("a revoked key on its own origin: 401, readable by that origin's page", async () => {
    const key = (await (await t.admin('POST', `/projects/${p.projectId}/api-keys`, { kind: 'delivery', allowed_origins: [SHOP] })).json()) as Created;
    expectReadableBy(await t.call(key.key, 'GET', '/v1/cached/translations/de', undefined, { Origin: SHOP }), SHOP);
    expect((await t.admin('DELETE', `/api-keys/${key.id}`)).status).toBe(204);
    for (const path of ['/v1/cached/translations/de', '/v1/cached/manifest']) {
      const res = await t.call(key.key, 'GET', path, undefined, { Origin: SHOP });
      expect(res.status, path).toBe(401);
      expectReadableBy(res, SHOP);
      expect(await res.json()).toEqual({ detail: 'Invalid API key' });
    }
  });

  it('a mistyped or missing key from any origin: 401 readable there', async () => {
    for (const key of [madeUp(1), 'not-a-key', undefined]) {
      const res = await t.call(key, 'GET', '/v1/cached/manifest', undefined, { Origin: OTHER });
      expect(res.status).toBe(401);
      expectReadableBy(res, OTHER);
    }
  });

  it('the failed-auth 429 is readable too, Retry-After included', async () => {
    const app = createApi(t.runtime.deps, allRouteGroups, { clientAddress: () => '203.0.113.70' });
    const get = (i: number) => app.request('/v1/cached/manifest', { headers: { 'X-API-Key': madeUp(100 + i), Origin: SHOP } });
    for (let i = 0; i < 3; i++) expect((await get(i)).status).toBe(401);
    const res = await get(3);
    expect(res.status).toBe(429);
    expectReadableBy(res, SHOP);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(res.headers.get('access-control-expose-headers')!.toLowerCase().split(/,\s*/)).toContain('retry-after');
  });

  it('everything else is as before: other paths, other refusals, a live key from an unlisted origin', async () => {
    // A 401 outside the cached reads: only the server's list.
    const keys = await t.call(madeUp(200), 'GET', '/v1/keys', undefined, { Origin: OTHER });
    expect(keys.status).toBe(401);
    expect(keys.headers.get('access-control-allow-origin')).toBeNull();
    expect(keys.headers.get('vary')).toMatch(/origin/i);
    const listed = await t.call(madeUp(201), 'GET', '/v1/keys', undefined, { Origin: LISTED });
    expect(listed.headers.get('access-control-allow-origin')).toBe(LISTED);
    // An origin-bound key from another origin: 403, not readable there.
    const bound = (await (await t.admin('POST', `/projects/${p.projectId}/api-keys`, { kind: 'delivery', allowed_origins: [SHOP] })).json()) as Created;
    const refused = await t.call(bound.key, 'GET', '/v1/cached/manifest', undefined, { Origin: OTHER });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    // A live key from an unlisted origin is served, and not readable there.
    const live = await t.call(p.apiKey, 'GET', '/v1/cached/manifest', undefined, { Origin: OTHER });
    expect(live.status).toBe(200);
    expect(live.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS_ORIGINS=* (the default)', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('a refused key is answered with Access-Control-Allow-Origin: * and no Vary, as every answer is', async () => {
    const res = await t.call(madeUp(300), 'GET', '/v1/cached/manifest', undefined, { Origin: SHOP });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('vary')).toBeNull();
  });
});
