// The shared auth cases of section 5, against every /v1 route the app has, and the admin token's
// cases against every /admin/v1 route: both lists come from the route table, not from a hand list.
// Delivery keys (delivery_…) too, on every /v1 route: 403 everywhere except the cached reads.
import { beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { useTestApp, ADMIN_TOKEN, type TestProject } from '../support/test-app.ts';
import { routeCases } from '../support/route-table.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';

const t = useTestApp();

// The cases must exist when vitest collects the tests, before the app starts: the same groups
// mounted the way createApi mounts them. The first test checks this table is the running app's.
const mounted = new Hono();
for (const group of allRouteGroups) mounted.route(group.prefix, group.routes);
const V1_ROUTES = routeCases(mounted, '/v1/');
const ADMIN_ROUTES = routeCases(mounted, '/admin/v1/');

it('the cases cover exactly the running app\'s routes', () => {
  const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
  expect(routeCases(t.app, '/v1/').map(key)).toEqual(V1_ROUTES.map(key));
  expect(routeCases(t.app, '/admin/v1/').map(key)).toEqual(ADMIN_ROUTES.map(key));
  expect(V1_ROUTES.length).toBeGreaterThan(25);
});

async function expectInvalidKey(res: Response) {
  expect(res.status).toBe(401);
  // RFC 9110 11.6.1: a 401 says how to authenticate (the header the key goes in).
  expect(res.headers.get('www-authenticate')).toBe('ApiKey realm="tms", header="X-API-Key"');
  expect(await res.json()).toEqual({ detail: 'Invalid API key' });
}

describe.each(V1_ROUTES)('$method $path', (route) => {
  let p: TestProject;
  let other: TestProject;
  let revokedKey: string;
  let deliveryKey: string;
  let revokedDeliveryKey: string;
  beforeAll(async () => {
    p = await t.newProject('team');
    other = await t.newProject('team');
    const extra = await (await t.admin('POST', `/projects/${p.projectId}/api-keys`)).json();
    revokedKey = extra.key;
    expect((await t.admin('DELETE', `/api-keys/${extra.id}`)).status).toBe(204);
    deliveryKey = (await (await t.admin('POST', `/projects/${p.projectId}/api-keys`, { kind: 'delivery' })).json()).key;
    const revokedDelivery = await (await t.admin('POST', `/projects/${p.projectId}/api-keys`, { kind: 'delivery' })).json();
    revokedDeliveryKey = revokedDelivery.key;
    expect((await t.admin('DELETE', `/api-keys/${revokedDelivery.id}`)).status).toBe(204);
  });

  it('401 without a key', async () => {
    await expectInvalidKey(await t.call(undefined, route.method, route.path, route.body));
  });
  it('401 for malformed keys, including inner and non-HTTP whitespace', async () => {
    for (const bad of ['nope', 'key_live_short', 'delivery_short', 'delivery_' + 'a'.repeat(200), deliveryKey + '\u00a0', 'key_test_' + 'a'.repeat(40), p.apiKey.slice(0, 20) + ' ' + p.apiKey.slice(20), p.apiKey + '\u00a0', '\u00a0' + p.apiKey, p.apiKey + '!', 'key_live_' + 'a'.repeat(200)]) {
      await expectInvalidKey(await t.call(bad, route.method, route.path, route.body));
    }
  });
  it('401 for an unknown well-formed key', async () => {
    await expectInvalidKey(await t.call('key_live_' + 'Z'.repeat(40), route.method, route.path, route.body));
  });
  it('401 for a revoked key, live or delivery', async () => {
    await expectInvalidKey(await t.call(revokedKey, route.method, route.path, route.body));
    await expectInvalidKey(await t.call(revokedDeliveryKey, route.method, route.path, route.body));
  });
  it("401 for a key whose prefix claims the other kind (the kind is the prefix's, checked against the stored one)", async () => {
    await expectInvalidKey(await t.call(p.apiKey.replace(/^key_live_/, 'delivery_'), route.method, route.path, route.body));
    await expectInvalidKey(await t.call(deliveryKey.replace(/^delivery_/, 'key_live_'), route.method, route.path, route.body));
  });
  it('a delivery key: 403 in the envelope everywhere except the cached reads, which it may use', async () => {
    const res = await t.call(deliveryKey, route.method, route.path, route.body);
    if (route.method === 'GET' && route.path.startsWith('/v1/cached/')) {
      expect([200, 404, 503]).toContain(res.status);
    } else {
      expect(res.status).toBe(403);
      expect((await res.json()).detail).toMatch(/delivery key only reads cached translations/);
    }
  });
  it('403 when X-Project-Id names another project', async () => {
    const res = await t.call(p.apiKey, route.method, route.path, route.body, { 'X-Project-Id': other.projectId });
    expect(res.status).toBe(403);
    expect(typeof (await res.json()).detail).toBe('string');
  });
  it('not 401/403 with a valid key and its own X-Project-Id', async () => {
    const res = await t.call(p.apiKey, route.method, route.path, route.body, { 'X-Project-Id': p.projectId });
    expect([401, 403]).not.toContain(res.status);
    expect(res.headers.get('www-authenticate')).toBeNull();
    // Cached routes answer 503 until the project's first build (section 4.7); nothing else may 5xx.
    if (route.path.startsWith('/v1/cached/')) expect([200, 404, 503]).toContain(res.status);
    else expect(res.status).toBeLessThan(500);
  });
});

describe('malformed keys never reach the database', () => {
  it('answers 401 for a malformed key even with the database gone', async () => {
    const { startTestApp } = await import('../support/test-app.ts');
    const app = await startTestApp();
    await app.runtime.deps.sql.end();
    const res = await app.call('key_live_bad key', 'GET', '/v1/keys');
    expect(res.status).toBe(401);
    await app.close();
  });
});

describe.each(ADMIN_ROUTES)('admin: $method $path', (route) => {
  it('401 without the admin token, with a wrong one, or with an API key', async () => {
    const p = await t.newProject('free');
    const variants: Record<string, string>[] = [{}, { Authorization: 'Bearer wrong' }, { Authorization: `Basic ${ADMIN_TOKEN}` }, { 'X-API-Key': p.apiKey }];
    for (const headers of variants) {
      const res = await t.call(undefined, route.method, route.path, route.method === 'GET' ? undefined : (route.body ?? {}), headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('www-authenticate'), JSON.stringify(headers)).toBe('Bearer realm="tms admin"');
    }
  });
});
