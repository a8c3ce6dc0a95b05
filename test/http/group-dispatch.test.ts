// The app over several route groups (the local server's, every test's) hands each request to the
// app of the group whose prefix it is under, the same app that group's Lambda runs
// (functions/http/create-api.ts). These tests hold the two to the same answers, pin where one
// prefix ends, and check that the groups of the hot reads keep Hono's RegExpRouter, which is why
// the dispatch exists.
import { describe, expect, it } from 'vitest';
import { createApi, groupFetch } from '../../functions/http/create-api.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';
import { useTestApp } from '../support/test-app.ts';
import { project } from '../translations/helpers.ts';

const t = useTestApp();

const groupNamed = (name: string) => {
  const group = allRouteGroups.find((g) => g.name === name);
  if (!group) throw new Error(`no route group ${name}`);
  return group;
};

// What a caller can tell apart: status, body, and the headers that are not per request (the request
// id; what is left of the day's quota, which each of the two requests counts).
const PER_REQUEST = /^(x-request-id|date|x-ratelimit-remaining|x-ratelimit-reset|ratelimit)$/;
async function answer(response: Response) {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !PER_REQUEST.test(name)));
  return { status: response.status, headers, body: await response.text() };
}

describe('one app over every route group', () => {
  it("answers each group's requests as that group's own app (its Lambda's) does", async () => {
    const p = await project(t, ['de'], 'team');
    const id = await p.key('home.title', 'home');
    await p.put(id, 'de', 'Hallo', 'approved');
    expect((await t.call(p.apiKey, 'POST', '/v1/cache/rebuild')).status).toBe(202);
    for (let polls = 0; !((await (await t.call(p.apiKey, 'GET', '/v1/cache/status')).json()) as { ready: boolean }).ready; polls++) {
      if (polls > 200) throw new Error('the build did not finish');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const cases: [group: string, method: string, path: string, status: number][] = [
      ['cached', 'GET', '/v1/cached/translations/de/home/home.title', 200],
      ['cached', 'GET', '/v1/cached/translations/de/home', 200],
      ['cached', 'GET', '/v1/cached/manifest', 200],
      ['cached', 'GET', '/v1/cached/translations/de/home/no.such.key', 404],
      ['translations', 'GET', '/v1/translations/de', 200],
      ['translations', 'GET', '/v1/translations/de/home/home.title', 200],
      ['manifest', 'GET', '/v1/manifest', 200],
      ['keys', 'GET', `/v1/keys/${id}`, 200],
      ['keys', 'GET', '/v1/keys/tags', 200],
      ['keys', 'GET', '/v1/keys/not-a-uuid', 422],
      ['keys', 'GET', '/v1/keys', 200],
      ['keys', 'GET', `/v1/keys/${id}/translations/de`, 200],
      ['keys', 'GET', '/v1/keys/tags/', 404],
      ['keys', 'GET', '/v1/keys/bulk-delete', 422],
      ['keys', 'GET', '/v1/keys/%74ags', 200],
      ['glossary', 'GET', '/v1/glossary', 200],
      ['glossary', 'GET', '/v1/glossary/export', 200],
      ['glossary', 'GET', '/v1/glossary/not-a-uuid', 422],
      ['languages', 'GET', '/v1/languages', 200],
      ['health', 'GET', '/health', 200],
    ];
    for (const [name, method, path, status] of cases) {
      const alone = createApi(t.runtime.deps, [groupNamed(name)]);
      const init = { method, headers: { 'X-API-Key': p.apiKey } };
      const whole = await answer(await t.app.request(path, init));
      const own = await answer(await alone.request(path, init));
      expect({ path, ...whole }).toEqual({ path, ...own });
      expect(whole.status, path).toBe(status);
    }
  });

  it('ends a prefix at a slash, and answers what no prefix covers itself', async () => {
    const p = await project(t, ['de'], 'team');
    // Not under /v1/keys: the whole app's 404 in the error envelope.
    const near = await t.call(p.apiKey, 'GET', '/v1/keysets');
    expect(near.status).toBe(404);
    expect(await near.json()).toEqual({ detail: 'Not Found' });
    expect((await t.call(p.apiKey, 'GET', '/nowhere')).status).toBe(404);
    // Only the whole app has the OpenAPI document and the portal's trailing-slash redirect.
    const openapi = await t.call(undefined, 'GET', '/openapi.json');
    expect(openapi.status).toBe(200);
    expect(Object.keys(((await openapi.json()) as { paths: object }).paths)).toContain('/v1/cached/manifest');
    const portal = await t.call(undefined, 'GET', '/portal/?next=1');
    expect(portal.status).toBe(308);
    expect(portal.headers.get('location')).toBe('/portal?next=1');
    // A percent-encoded prefix is routed as Hono routes it, decoded: to the same group.
    const plain = await t.call(p.apiKey, 'GET', '/v1/manifest');
    const encoded = await t.call(p.apiKey, 'GET', '/v1/%6Danifest');
    expect(encoded.status).toBe(plain.status);
    expect(await encoded.text()).toBe(await plain.text());
  });

  it("routes a group's request in the group's app alone, not in the router over all routes", async () => {
    const app = createApi(t.runtime.deps, allRouteGroups);
    const matched: string[] = [];
    const match = app.router.match.bind(app.router);
    app.router.match = (method, path) => {
      matched.push(path);
      return match(method, path);
    };
    const p = await project(t, ['de'], 'team');
    expect((await app.request('/v1/manifest', { headers: { 'X-API-Key': p.apiKey } })).status).toBe(200);
    expect((await app.request('/v1/languages', { headers: { 'X-API-Key': p.apiKey } })).status).toBe(200);
    expect(matched).toEqual([]);
    expect((await app.request('/nowhere')).status).toBe(404);
    expect(matched).toEqual(['/nowhere']);
  });

  it('keeps the groups of the hot reads on RegExpRouter (the one router over all cannot be)', async () => {
    for (const name of ['cached', 'translations', 'manifest']) {
      const alone = createApi(t.runtime.deps, [groupNamed(name)]);
      await alone.request(`${groupNamed(name).prefix}/no-such-route`);
      expect(alone.router.name, name).toBe('SmartRouter + RegExpRouter');
    }
  });

  it("splits a group whose static segments sit beside a parameter, each request matched where the group's routes would match it", async () => {
    const p = await project(t, ['de'], 'team');
    const id = await p.key('home.title', 'home');
    const keys = groupNamed('keys');
    const { fetch, apps } = groupFetch(t.runtime.deps, keys, {});
    expect(apps).toHaveLength(2);
    const [all, rest] = apps as [(typeof apps)[0], (typeof apps)[0]];
    const matched: string[] = [];
    for (const [name, app] of [['all', all], ['rest', rest]] as const) {
      // Hono's SmartRouter puts the router it chose in place of its own match on the first one.
      app.router.match('GET', '/');
      const match = app.router.match.bind(app.router);
      app.router.match = (method, path) => {
        matched.push(`${name} ${method} ${path}`);
        return match(method, path);
      };
    }
    const call = async (method: string, path: string, body?: unknown) => {
      const init: RequestInit = { method, headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' } };
      if (body !== undefined) init.body = JSON.stringify(body);
      return fetch(new Request(`http://localhost${path}`, init));
    };
    // The named segments (and what is under them) go to the app of all the group's routes.
    expect((await call('GET', '/v1/keys/tags')).status).toBe(200);
    expect((await call('POST', '/v1/keys/bulk-tags', { key_ids: [id], add: ['mobile'] })).status).toBe(200);
    expect((await call('PATCH', '/v1/keys/tags/mobile', { name: 'phone' })).status).toBe(200);
    // Anything else to the app whose router leaves those routes out: Hono's RegExpRouter.
    expect((await call('GET', `/v1/keys/${id}`)).status).toBe(200);
    expect((await call('PUT', `/v1/keys/${id}/translations/de`, { value: 'Hallo' })).status).toBe(200);
    expect((await call('GET', '/v1/keys?limit=1')).status).toBe(200);
    expect((await call('GET', '/v1/keys/tagsx')).status).toBe(422);
    expect(matched).toEqual([
      'all GET /v1/keys/tags',
      'all POST /v1/keys/bulk-tags',
      'all PATCH /v1/keys/tags/mobile',
      `rest GET /v1/keys/${id}`,
      `rest PUT /v1/keys/${id}/translations/de`,
      'rest GET /v1/keys',
      'rest GET /v1/keys/tagsx',
    ]);
    expect(rest.router.name).toBe('SmartRouter + RegExpRouter');
    expect(all.router.name).toBe('SmartRouter + TrieRouter');
    // The keys group's own app (its Lambda's) is that split too; a group the RegExpRouter takes whole is one app.
    expect(groupFetch(t.runtime.deps, groupNamed('cached'), {}).apps).toHaveLength(1);
    expect(groupFetch(t.runtime.deps, groupNamed('glossary'), {}).apps).toHaveLength(2);
  });

  it("answers a split group's Lambda as the whole group: the renamed tag and the key both there", async () => {
    const p = await project(t, ['de'], 'team');
    const id = await p.key('home.title', 'home');
    const alone = createApi(t.runtime.deps, [groupNamed('keys')]);
    const headers = { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' };
    expect((await alone.request('/v1/keys/bulk-tags', { method: 'POST', headers, body: JSON.stringify({ key_ids: [id], add: ['web'] }) })).status).toBe(200);
    const key = (await (await alone.request(`/v1/keys/${id}`, { headers })).json()) as { tags: string[] };
    expect(key.tags).toEqual(['web']);
    const tags = (await (await alone.request('/v1/keys/tags', { headers })).json()) as unknown;
    expect(JSON.stringify(tags)).toContain('"web"');
    // What is not under the group's prefix is the whole app's: its 404 in the error envelope.
    const outside = await alone.request('/v1/keysets', { headers });
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({ detail: 'Not Found' });
  });
});
