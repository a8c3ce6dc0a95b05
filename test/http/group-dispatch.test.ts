// The app over several route groups (the local server's, every test's) hands each request to the
// app of the group whose prefix it is under, the same app that group's Lambda runs
// (functions/http/create-api.ts). These tests hold the two to the same answers, pin where one
// prefix ends, and check that the groups of the hot reads keep Hono's RegExpRouter, which is why
// the dispatch exists.
import { describe, expect, it } from 'vitest';
import { createApi } from '../../functions/http/create-api.ts';
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
});
