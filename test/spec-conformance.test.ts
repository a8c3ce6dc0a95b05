// The spec, section by section, as a client meets it: keys, values, groups, languages, live and
// cached reads, authentication, quotas and plan limits, and one project never reaching another's
// data. Each test is one checked behaviour, with the spec's words beside it where they decide.
import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/test-app.ts';
import { createApi } from '../functions/http/create-api.ts';
import { allRouteGroups } from '../functions/route-groups.ts';
import { body, project } from './translations/helpers.ts';
import { rebuild, seed } from './support/cache-helpers.ts';

const t = useTestApp();

describe('4.1 keys', () => {
  it('POST /v1/keys 201 body and defaults; field limits 500/200/1000', async () => {
    const p = await project(t, ['de']);
    const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'a.b' });
    expect(res.status).toBe(201);
    const b = await body(res);
    expect(Object.keys(b).sort()).toEqual(['description', 'group_name', 'id', 'key', 'max_length', 'project_id', 'tags']);
    expect(b.group_name).toBe('Default');
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'x'.repeat(500) })).status).toBe(201);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'y'.repeat(501) })).status).toBe(422);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'g200', group_name: 'g'.repeat(200) })).status).toBe(201);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'g201', group_name: 'g'.repeat(201) })).status).toBe(422);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'd1000', description: 'd'.repeat(1000) })).status).toBe(201);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'd1001', description: 'd'.repeat(1001) })).status).toBe(422);
    const dup = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'a.b' });
    expect(dup.status).toBe(409);
    expect(typeof (await body(dup)).detail).toBe('string');
  });

  it('GET /v1/keys shape and ?group filter', async () => {
    const p = await project(t, ['de']);
    await p.key('home.a', 'home');
    await p.key('login.b', 'login');
    const res = await p.get('/v1/keys?group=home');
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b.project_id).toBe(p.projectId);
    expect(b.count).toBe(1);
    expect(b.keys.map((k: { key: string }) => k.key)).toEqual(['home.a']);
    // The spec's fields, tags and max_length (extensions: docs/decisions.md, "Tags on keys", "Character limits").
    expect(Object.keys(b.keys[0]).sort()).toEqual(['created_at', 'description', 'group_name', 'id', 'key', 'max_length', 'tags', 'updated_at']);
  });

  it('PATCH /v1/keys/{id}: body, 404 for another project', async () => {
    const p = await project(t, ['de']);
    const q = await project(t, ['de']);
    const id = await p.key('home.a', 'home');
    const res = await t.call(p.apiKey, 'PATCH', `/v1/keys/${id}`, { group_name: 'other' });
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ id, project_id: p.projectId, updated: true, group_name: 'other', tags: [], max_length: null });
    const foreign = await t.call(q.apiKey, 'PATCH', `/v1/keys/${id}`, { description: 'x' });
    expect(foreign.status).toBe(404);
    expect((await t.call(q.apiKey, 'DELETE', `/v1/keys/${id}`)).status).toBe(404);
    expect((await t.call(q.apiKey, 'GET', `/v1/keys/${id}`)).status).toBe(404);
    expect((await t.call(q.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'x' })).status).toBe(404);
    expect((await t.call(q.apiKey, 'DELETE', `/v1/keys/${id}/translations/de`)).status).toBe(404);
    expect((await t.call(q.apiKey, 'GET', `/v1/keys/${id}/translations/de`)).status).toBe(404);
    const del = await t.call(p.apiKey, 'DELETE', `/v1/keys/${id}`);
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${id}`)).status).toBe(404);
  });

  it('free plan: 250 keys, the 251st is 402 with a string detail', async () => {
    const p = await t.newProject('free');
    for (let i = 0; i < 250; i++) {
      const r = await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k${i}` });
      expect(r.status, await r.clone().text()).toBe(201);
    }
    const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'k250' });
    expect(res.status).toBe(402);
    expect(typeof (await body(res)).detail).toBe('string');
  });

  it('free plan: 2 languages, the third is 402', async () => {
    const p = await t.newProject('free');
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'fr' })).status).toBe(201);
    const res = await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'it' });
    expect(res.status).toBe(402);
    expect(typeof (await body(res)).detail).toBe('string');
  });
});

describe('4.1 values', () => {
  it('PUT value: 200 body, limit 10,000, default draft, DELETE 204 then 404', async () => {
    const p = await project(t, ['de']);
    const id = await p.key('home.a', 'home');
    const res = await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'v'.repeat(10_000) });
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b).toMatchObject({ key_id: id, language: 'de', value: 'v'.repeat(10_000), status: 'draft', project_id: p.projectId });
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'v'.repeat(10_001) })).status).toBe(422);
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'x', status: 'published' })).status).toBe(422);
    const del = await t.call(p.apiKey, 'DELETE', `/v1/keys/${id}/translations/de`);
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${id}/translations/de`)).status).toBe(404);
  });
});

describe('4.2 groups', () => {
  it('list, validate, rename, delete', async () => {
    const p = await project(t, ['de']);
    await p.key('home.a', 'home');
    await p.key('home.b', 'home');
    expect(await body(await p.get('/v1/groups'))).toEqual({ project_id: p.projectId, groups: ['home'], count: 1 });
    const created = await t.call(p.apiKey, 'POST', '/v1/groups', { name: 'login' });
    expect(created.status).toBe(201);
    expect(await body(created)).toEqual({ project_id: p.projectId, name: 'login', created: true });
    expect((await t.call(p.apiKey, 'POST', '/v1/groups', { name: 'home' })).status).toBe(409);
    const renamed = await t.call(p.apiKey, 'PATCH', '/v1/groups/home', { new_name: 'start' });
    expect(renamed.status).toBe(200);
    expect(await body(renamed)).toEqual({ project_id: p.projectId, old_name: 'home', new_name: 'start', keys_updated: 2 });
    expect((await t.call(p.apiKey, 'PATCH', '/v1/groups/home', { new_name: 'x' })).status).toBe(404);
    const del = await t.call(p.apiKey, 'DELETE', '/v1/groups/start');
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    expect((await t.call(p.apiKey, 'DELETE', '/v1/groups/start')).status).toBe(404);
  });

  it("another project's group cannot be renamed or deleted", async () => {
    const p = await project(t, ['de']);
    const q = await project(t, ['de']);
    await p.key('home.a', 'home');
    expect((await t.call(q.apiKey, 'PATCH', '/v1/groups/home', { new_name: 'x' })).status).toBe(404);
    expect((await t.call(q.apiKey, 'DELETE', '/v1/groups/home')).status).toBe(404);
    expect((await body(await p.get('/v1/groups'))).groups).toEqual(['home']);
  });
});

describe('4.3 languages', () => {
  it('list, add, remove', async () => {
    const p = await project(t, []);
    const added = await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' });
    expect(added.status).toBe(201);
    expect(await body(added)).toEqual({ project_id: p.projectId, code: 'de', added: true });
    const list = await body(await p.get('/v1/languages'));
    expect(list.project_id).toBe(p.projectId);
    expect(list.count).toBe(1);
    expect(Object.keys(list.languages[0]).sort()).toEqual(['added_at', 'code']);
    const id = await p.key('a');
    await p.put(id, 'de', 'x');
    const removed = await t.call(p.apiKey, 'DELETE', '/v1/languages/de');
    expect(removed.status).toBe(200);
    expect(await body(removed)).toEqual({ project_id: p.projectId, code: 'de', translations_deleted: 1, deleted: true });
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/de')).status).toBe(404);
  });
});

describe('4.4 live reads', () => {
  it('shapes for status filters', async () => {
    const p = await project(t, ['de']);
    const a = await p.key('home.a', 'home');
    const b = await p.key('home.b', 'home');
    await p.put(a, 'de', 'A', 'approved');
    await p.put(b, 'de', 'B', 'draft');
    const lang = await body(await p.get('/v1/translations/de'));
    expect(lang).toEqual({ project_id: p.projectId, language: 'de', status_filter: 'approved', count: 1, translations: { 'home.a': 'A' } });
    const all = await body(await p.get('/v1/translations/de?status=all'));
    expect(all.translations).toEqual({ 'home.a': { value: 'A', status: 'approved', group: 'home' }, 'home.b': { value: 'B', status: 'draft', group: 'home' } });
    expect(all.count).toBe(2);
    const group = await body(await p.get('/v1/translations/de/home?status=all'));
    expect(group).toEqual({
      project_id: p.projectId, language: 'de', group: 'home', status_filter: 'all', count: 2,
      translations: { 'home.a': { value: 'A', status: 'approved' }, 'home.b': { value: 'B', status: 'draft' } },
    });
    const key = await body(await p.get('/v1/translations/de/home/home.a'));
    expect(key).toEqual({ key: 'home.a', group: 'home', language: 'de', value: 'A', status: 'approved' });
    const miss = await p.get('/v1/translations/de/home/home.b');
    expect(miss.status).toBe(404);
    const detail = (await body(miss)).detail as string;
    expect(detail).toContain('home.b');
    expect(detail).toContain('home');
    expect(detail).toContain('de');
    expect((await p.get('/v1/translations/de?status=bogus')).status).toBe(422);
  });
});

describe('4.5 manifest and 4.6-4.7 cache', () => {
  it('manifest, rebuild, status, cached reads', async () => {
    const p = await t.newProject('team');
    await seed(t, p, { 'home.title': { de: ['Hallo', 'approved'], fr: ['Salut', 'draft'] } });
    const m = await body(await t.call(p.apiKey, 'GET', '/v1/manifest'));
    expect(m).toEqual({
      project_id: p.projectId,
      languages: [
        { code: 'de', name: 'German', iso: 'de', approved_count: 1 },
        { code: 'fr', name: 'French', iso: 'fr', approved_count: 0 },
      ],
    });
    await rebuild(t, p);
    const key = await t.call(p.apiKey, 'GET', '/v1/cached/translations/de/home/home.title');
    expect(key.status).toBe(200);
    expect(await key.json()).toEqual({ value: 'Hallo' });
    const lang = await t.call(p.apiKey, 'GET', '/v1/cached/translations/de');
    expect(await lang.json()).toMatchObject({ project_id: p.projectId, language: 'de', status_filter: 'approved', count: 1, translations: { 'home.title': 'Hallo' } });
  });
});

describe('5 authentication', () => {
  it('401 Invalid API key: missing, malformed, revoked; 403 other project', async () => {
    const p = await t.newProject('team');
    for (const key of [undefined, 'nope', `${p.apiKey}x`, `${p.apiKey}\u00a0`]) {
      const res = await t.call(key, 'GET', '/v1/keys');
      expect(res.status, String(key)).toBe(401);
      expect(await res.json()).toEqual({ detail: 'Invalid API key' });
    }
    const q = await t.newProject('team');
    const res = await t.call(p.apiKey, 'GET', '/v1/keys', undefined, { 'X-Project-Id': q.projectId });
    const revoked = await t.newProject('team');
    expect((await t.admin('DELETE', `/api-keys/${revoked.apiKeyId}`)).status).toBe(204);
    const gone = await t.call(revoked.apiKey, 'GET', '/v1/keys');
    expect(gone.status).toBe(401);
    expect(await gone.json()).toEqual({ detail: 'Invalid API key' });
    expect(res.status).toBe(403);
  });
});

const importJson = (apiKey: string, language: string, values: Record<string, string>) =>
  t.app.request(`/v1/import/${language}?format=json`, {
    method: 'POST',
    headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/octet-stream' },
    body: JSON.stringify(values),
  });

describe('7/8 quotas and limits', () => {
  it('429 beyond the grace zone carries Retry-After and X-RateLimit-Limit', async () => {
    const p = await t.newProject('team');
    expect((await t.admin('PATCH', `/accounts/${p.accountId}`, { daily_call_limit: 3 })).status).toBe(200);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await t.call(p.apiKey, 'GET', '/v1/languages');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('x-ratelimit-limit')).toBe('3');
    expect(typeof (await last!.json()).detail).toBe('string');
  });

  // Spec 8: "beyond the grace zone the service answers 429". A conditional read is answered 304 instead.
  it('8: beyond the grace zone every call is answered 429 (a conditional GET included)', async () => {
    const p = await project(t, ['de']);
    const id = await p.key('home.a', 'home');
    await p.put(id, 'de', 'A', 'approved');
    const first = await p.get('/v1/translations/de');
    const etag = first.headers.get('etag')!;
    expect((await t.admin('PATCH', `/accounts/${p.accountId}`, { daily_call_limit: 1 })).status).toBe(200);
    // The limit is now far exceeded (several calls made above): plain calls are refused...
    expect((await p.get('/v1/translations/de')).status).toBe(429);
    // ...but the same read with If-None-Match is served.
    const conditional = await t.call(p.apiKey, 'GET', '/v1/translations/de', undefined, { 'If-None-Match': etag });
    expect(conditional.status).toBe(429);
  });

  // Spec 5.3: 401 for a missing or malformed key. An address past its failed authentications
  // (docs/operations.md) is refused only what would take a database lookup.
  it('failed authentications from one address: malformed keys stay 401, a verified key is served', async () => {
    const p = await t.newProject('team');
    const app = createApi(t.runtime.deps, allRouteGroups, { clientAddress: () => '203.0.113.77' });
    const get = (key: string) => app.request('/v1/languages', { headers: { 'X-API-Key': key } });
    expect((await get(p.apiKey)).status).toBe(200);
    const statuses = new Set<number>();
    for (let i = 0; i < 61; i++) statuses.add((await get('not-a-key')).status);
    expect([...statuses]).toEqual([401]);
    expect((await get(p.apiKey)).status).toBe(200);
    // A made-up well-formed key would need a lookup: throttled, with Retry-After.
    const unknown = await get(`key_live_${'Z'.repeat(40)}`);
    expect(unknown.status).toBe(429);
    expect(Number(unknown.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('402 QUOTA_EXCEEDED detail: code, used, limit, reset_date (date), upgrade_url (URL)', async () => {
    const p = await project(t, ['de']);
    expect((await t.admin('PATCH', `/accounts/${p.accountId}`, { translation_unit_allowance: 2 })).status).toBe(200);
    expect((await importJson(p.apiKey, 'de', { a: '1', b: '2', c: '3', d: '4' })).status).toBe(200);
    const refused = await importJson(p.apiKey, 'de', { e: '5' });
    expect(refused.status).toBe(402);
    const { detail } = await refused.json();
    expect(detail).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: 4, used: expect.any(Number) });
    expect(detail.reset_date).toMatch(/^\d{4}-\d\d-\d\d$/);
    // "upgrade_url (URL)": an absolute URL a client can open.
    expect(() => new URL(detail.upgrade_url)).not.toThrow();
  });

  it('free plan: one project; the second is 402 with a string detail', async () => {
    const p = await t.newProject('free');
    const res = await t.admin('POST', `/accounts/${p.accountId}/projects`, { name: 'second' });
    expect(res.status).toBe(402);
    expect(typeof (await res.json()).detail).toBe('string');
  });
});

describe('4.1 GET /v1/keys ?group', () => {
  // decisions.md: "a filter that could never be a group name (NUL, other characters, over 200) matches nothing: 200 with no keys".
  it('a filter that could never be a group name matches no key; an empty one is no filter; over 1,000 characters is 422', async () => {
    const p = await project(t, ['de']);
    await p.key('home.a', 'home');
    for (const group of ['g'.repeat(201), 'a/b', ' home']) {
      const res = await p.get(`/v1/keys?group=${encodeURIComponent(group)}`);
      expect(res.status).toBe(200);
      expect((await body(res)).keys).toEqual([]);
    }
    expect((await body(await p.get('/v1/keys?group='))).keys.map((k: { key: string }) => k.key)).toEqual(['home.a']);
    expect((await p.get(`/v1/keys?group=${'g'.repeat(1001)}`)).status).toBe(422);
  });
});

describe('5.4 X-Project-Id', () => {
  // decisions.md: "An id in capitals names the same thing ... and answers name it in lowercase".
  it("the key's own project id in capitals is not 'a different project'", async () => {
    const p = await t.newProject('team');
    const res = await t.call(p.apiKey, 'GET', '/v1/languages', undefined, { 'X-Project-Id': p.projectId.toUpperCase() });
    expect(res.status).toBe(200);
  });
});
