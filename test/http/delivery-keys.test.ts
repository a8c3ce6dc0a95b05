// Delivery keys (delivery_…): read-only keys for apps, on the cached endpoints only, optionally bound
// to browser origins and to languages. Every /v1 route's refusal is pinned by the shared auth cases
// (auth.test.ts); here: what they can read, their bindings, CORS, the quota, and how they are made.
import { beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { startTestApp, useTestApp, type TestProject } from '../support/test-app.ts';
import { rebuild, seed } from '../support/cache-helpers.ts';
import { routeCases } from '../support/route-table.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';
import { createApiKeyVerifier } from '../../core/auth/api-key-verifier.ts';
import { createMemoryLogger } from '../../core/log.ts';
import type { Sql } from '../../core/db/client.ts';

const t = useTestApp();

type Created = { id: string; key: string; kind: string; name: string | null; allowed_origins: string[] | null; allowed_languages: string[] | null };

async function deliveryKey(p: TestProject, body: Record<string, unknown> = {}): Promise<Created> {
  const res = await t.admin('POST', `/projects/${p.projectId}/api-keys`, { kind: 'delivery', ...body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Created;
}

// The cached routes the app has (the versioned build routes included, whoever adds them), each
// with a language this test's language-bound key may not read.
const mounted = new Hono();
for (const group of allRouteGroups) mounted.route(group.prefix, group.routes);
const CACHED_LANGUAGE_ROUTES = routeCases(mounted, '/v1/cached/', (name) => (name === 'language' ? 'fr' : undefined)).filter((r) =>
  r.id.includes(':language'),
);

describe('reading with a delivery key', () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await t.newProject('team');
    await seed(t, p, { 'home.title': { de: ['Hallo', 'approved'], fr: ['Bonjour', 'approved'] }, 'home.draft': { de: ['Entwurf', 'draft'] } });
    await rebuild(t, p);
  });

  it('is made with its own prefix and reads exactly what the live key reads from the cache', async () => {
    const created = await deliveryKey(p, { name: 'Web app' });
    expect(created).toMatchObject({ kind: 'delivery', name: 'Web app', allowed_origins: null, allowed_languages: null, project_id: p.projectId });
    expect(created.key).toMatch(/^delivery_[0-9A-Za-z]{40}$/);
    for (const path of ['/v1/cached/manifest', '/v1/cached/translations/de', '/v1/cached/translations/de/home', '/v1/cached/translations/de/home/home.title']) {
      const [live, delivery] = await Promise.all([t.call(p.apiKey, 'GET', path), t.call(created.key, 'GET', path)]);
      expect(delivery.status, path).toBe(200);
      expect(delivery.headers.get('etag'), path).toBe(live.headers.get('etag'));
      expect(await delivery.text(), path).toBe(await live.text());
    }
    // Drafts never: the live reads (drafts with ?status=all) are refused outright.
    const draft = await t.call(created.key, 'GET', '/v1/translations/de?status=all');
    expect(draft.status).toBe(403);
    expect(JSON.stringify(await draft.json())).not.toContain('Entwurf');
  });

  it('refuses every write and writes nothing', async () => {
    const { key } = await deliveryKey(p);
    expect((await t.call(key, 'POST', '/v1/keys', { key: 'evil.key' })).status).toBe(403);
    expect((await t.call(key, 'DELETE', '/v1/languages/de')).status).toBe(403);
    expect((await t.call(key, 'POST', '/v1/cache/rebuild')).status).toBe(403);
    const keys = await (await t.call(p.apiKey, 'GET', '/v1/keys')).json();
    expect(JSON.stringify(keys)).not.toContain('evil.key');
    expect((await (await t.call(p.apiKey, 'GET', '/v1/languages')).json()).languages.map((l: { code: string }) => l.code)).toContain('de');
  });

  it('bound to languages: reads those, 403 for any other on every cached route that names a language', async () => {
    const { key } = await deliveryKey(p, { allowed_languages: ['DE'] });
    expect((await t.call(key, 'GET', '/v1/cached/translations/de')).status).toBe(200);
    expect((await t.call(key, 'GET', '/v1/cached/translations/de/home/home.title')).status).toBe(200);
    expect(CACHED_LANGUAGE_ROUTES.length).toBeGreaterThanOrEqual(3);
    for (const route of CACHED_LANGUAGE_ROUTES) {
      const res = await t.call(key, route.method, route.path);
      expect(res.status, route.id).toBe(403);
      expect((await res.json()).detail, route.id).toBe("This delivery key is not allowed to read 'fr'");
    }
    // An invalid code is the route's own 422, not a 403 that would hide the mistake.
    expect((await t.call(key, 'GET', '/v1/cached/translations/not_a_code')).status).toBe(422);
  });

  it('bound to languages: the cached manifest lists only those, with its own ETag and 304s', async () => {
    const { key } = await deliveryKey(p, { allowed_languages: ['de'] });
    const full = await t.call(p.apiKey, 'GET', '/v1/cached/manifest');
    expect((await full.json()).languages.map((l: { code: string }) => l.code)).toEqual(['de', 'fr']);
    const res = await t.call(key, 'GET', '/v1/cached/manifest');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.project_id).toBe(p.projectId);
    expect(body.languages.map((l: { code: string }) => l.code)).toEqual(['de']);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(etag).not.toBe(full.headers.get('etag'));
    const again = await t.call(key, 'GET', '/v1/cached/manifest', undefined, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // The stored manifest's ETag is not this key's: a full answer.
    expect((await t.call(key, 'GET', '/v1/cached/manifest', undefined, { 'If-None-Match': full.headers.get('etag')! })).status).toBe(200);
    // Another list, another ETag.
    const both = await deliveryKey(p, { allowed_languages: ['de', 'fr'] });
    expect((await t.call(both.key, 'GET', '/v1/cached/manifest')).headers.get('etag')).not.toBe(etag);
  });

  it('bound to origins: Origin outside the list is 403; inside, answered with CORS and Vary: Origin; without Origin, served', async () => {
    const { key } = await deliveryKey(p, { allowed_origins: ['https://APP.example:443/', 'http://localhost:5173'] });
    const ok = await t.call(key, 'GET', '/v1/cached/translations/de', undefined, { Origin: 'https://app.example' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).not.toBeNull();
    expect(ok.headers.get('vary')).toMatch(/Origin/);
    expect((await t.call(key, 'GET', '/v1/cached/translations/de', undefined, { Origin: 'http://localhost:5173' })).status).toBe(200);
    for (const origin of ['https://evil.example', 'http://app.example', 'https://app.example:8443', 'null']) {
      const refused = await t.call(key, 'GET', '/v1/cached/translations/de', undefined, { Origin: origin });
      expect(refused.status, origin).toBe(403);
      expect((await refused.json()).detail).toBe('This delivery key is not allowed from this Origin');
    }
    // Servers and mobile apps send no Origin (and could send any): served.
    expect((await t.call(key, 'GET', '/v1/cached/translations/de')).status).toBe(200);
  });

  it("counts against the account's daily quota like any key", async () => {
    const { key } = await deliveryKey(p);
    const before = Number((await t.call(p.apiKey, 'GET', '/v1/languages')).headers.get('x-ratelimit-remaining'));
    const read = await t.call(key, 'GET', '/v1/cached/translations/de');
    expect(Number(read.headers.get('x-ratelimit-remaining'))).toBe(before - 1);
    const after = Number((await t.call(p.apiKey, 'GET', '/v1/languages')).headers.get('x-ratelimit-remaining'));
    expect(after).toBe(before - 2);
    // A 304 is free for it too.
    const etag = read.headers.get('etag')!;
    const revalidated = await t.call(key, 'GET', '/v1/cached/translations/de', undefined, { 'If-None-Match': etag });
    expect(revalidated.status).toBe(304);
    expect(Number((await t.call(p.apiKey, 'GET', '/v1/languages')).headers.get('x-ratelimit-remaining'))).toBe(after - 1);
  });

  it('the hot path: one lookup however many requests (bindings are cached with the key), one last-use write a minute', async () => {
    const { key, id } = await deliveryKey(p, { allowed_origins: ['https://app.example'], allowed_languages: ['de'] });
    let statements = 0;
    const sql = new Proxy(t.runtime.deps.sql, {
      apply(target, self, args) {
        statements++;
        return Reflect.apply(target, self, args);
      },
    }) as Sql;
    const verifier = createApiKeyVerifier({ sql, log: createMemoryLogger(), ttlMs: 30_000 });
    for (let i = 0; i < 500; i++) {
      expect(await verifier.verify(key)).toMatchObject({ apiKeyId: id, kind: 'delivery', allowedOrigins: ['https://app.example'], allowedLanguages: ['de'] });
    }
    await verifier.lastUseSettled();
    expect(statements).toBe(2);
  });

  it('revoked: 401 at once', async () => {
    const created = await deliveryKey(p);
    expect((await t.call(created.key, 'GET', '/v1/cached/translations/de')).status).toBe(200);
    expect((await t.admin('DELETE', `/api-keys/${created.id}`)).status).toBe(204);
    expect((await t.call(created.key, 'GET', '/v1/cached/translations/de')).status).toBe(401);
  });
});

describe('creating API keys through the admin API', () => {
  it('validates name, kind and bindings with 422s naming the field', async () => {
    const p = await t.newProject();
    const create = (body: unknown) => t.admin('POST', `/projects/${p.projectId}/api-keys`, body);
    const loc = async (res: Response) => {
      expect(res.status).toBe(422);
      return ((await res.json()).detail as { loc: unknown[] }[]).map((i) => i.loc.join('.'));
    };
    expect(await loc(await create({ allowed_origins: ['https://app.example'] }))).toEqual(['body.allowed_origins']);
    expect(await loc(await create({ kind: 'live', allowed_languages: ['de'] }))).toEqual(['body.allowed_languages']);
    expect(await loc(await create({ kind: 'secret' }))).toEqual(['body.kind']);
    expect(await loc(await create({ name: '   ' }))).toEqual(['body.name']);
    expect(await loc(await create({ name: 'x'.repeat(101) }))).toEqual(['body.name']);
    expect(await loc(await create({ name: 'a\nb' }))).toEqual(['body.name']);
    expect(await loc(await create({ kind: 'delivery', allowed_origins: [] }))).toEqual(['body.allowed_origins']);
    for (const bad of ['app.example', 'https://app.example/path', 'ftp://app.example', 'https://app.example?x=1', 'https://user@app.example', '*']) {
      expect(await loc(await create({ kind: 'delivery', allowed_origins: [bad] })), bad).toEqual(['body.allowed_origins.0']);
    }
    expect(await loc(await create({ kind: 'delivery', allowed_languages: ['english'] }))).toEqual(['body.allowed_languages.0']);
    expect(await loc(await create({ key: 'key_live_chosen' }))).toEqual(['body.key']);

    const named = await create({ name: '  CI  ', kind: 'delivery', allowed_origins: ['https://A.example/', 'https://a.example'], allowed_languages: ['pt-br', 'pt-BR'] });
    expect(named.status).toBe(201);
    expect(await named.json()).toMatchObject({ name: 'CI', allowed_origins: ['https://a.example'], allowed_languages: ['pt-BR'] });
    // No body, a blank one, or {} still make a live key (as before names existed).
    for (const body of [undefined, '', '{}']) {
      const res = await t.call(undefined, 'POST', `/admin/v1/projects/${p.projectId}/api-keys`, body, { Authorization: 'Bearer test-admin-token-0123456789' });
      expect(res.status).toBe(201);
      expect((await res.json()).key).toMatch(/^key_live_/);
    }
    const notJson = await t.call(undefined, 'POST', `/admin/v1/projects/${p.projectId}/api-keys`, undefined, {
      Authorization: 'Bearer test-admin-token-0123456789',
      'Content-Type': 'text/plain',
    });
    expect(notJson.status).toBe(201);
  });
});

describe('CORS for delivery keys when CORS_ORIGINS is a list', () => {
  it("answers the cached reads' preflight for any origin; the key's own origins get the CORS headers, others do not", async () => {
    const app = await startTestApp({ env: { CORS_ORIGINS: 'https://console.example' } });
    try {
      const preflight = (path: string, origin: string) =>
        app.app.request(path, {
          method: 'OPTIONS',
          headers: { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key, if-none-match' },
        });
      const cached = await preflight('/v1/cached/translations/de', 'https://shop.example');
      expect(cached.status).toBe(204);
      expect(cached.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(cached.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
      expect(cached.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
      // Elsewhere the server's list alone decides.
      expect((await preflight('/v1/keys', 'https://shop.example')).headers.get('access-control-allow-origin')).toBeNull();

      const p = await app.newProject();
      await seed(app, p, { 'home.title': { de: ['Hallo', 'approved'] } });
      await rebuild(app, p);
      const { key } = (await (await app.admin('POST', `/projects/${p.projectId}/api-keys`, { kind: 'delivery', allowed_origins: ['https://shop.example'] })).json()) as Created;
      const read = await app.call(key, 'GET', '/v1/cached/translations/de', undefined, { Origin: 'https://shop.example' });
      expect(read.status).toBe(200);
      expect(read.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(read.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('etag');
      // A live key from that origin: served (a key is a key), but a browser may not read it.
      const live = await app.call(p.apiKey, 'GET', '/v1/cached/translations/de', undefined, { Origin: 'https://shop.example' });
      expect(live.status).toBe(200);
      expect(live.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await app.close();
    }
  });
});
