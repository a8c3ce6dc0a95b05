// What a language- and origin-bound delivery key can reach, in every spelling of a path (case, percent-encoding, slashes, regions, HEAD, build URLs, export, live reads), and the CORS headers on its answers; a revoked key gets no 304.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestProject } from '../support/test-app.ts';
import { rebuild, seed } from '../support/cache-helpers.ts';

type Created = { id: string; key: string };

describe('a language- and origin-bound delivery key, CORS_ORIGINS a list', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let p: TestProject;
  let bound: Created;
  let buildId: string;
  const SHOP = 'https://shop.example';
  beforeAll(async () => {
    t = await startTestApp({ env: { CORS_ORIGINS: 'https://console.example' } });
    p = await t.newProject('team');
    await seed(t, p, { 'home.title': { de: ['Hallo', 'approved'], fr: ['Bonjour secret', 'approved'] } });
    await rebuild(t, p);
    bound = (await (
      await t.admin('POST', `/projects/${p.projectId}/api-keys`, { kind: 'delivery', allowed_origins: [SHOP], allowed_languages: ['de'] })
    ).json()) as Created;
    const manifest = await (await t.call(p.apiKey, 'GET', '/v1/cached/manifest')).json();
    buildId = manifest.build_id;
  });
  afterAll(async () => t?.close());

  it('no spelling of a path reaches the other language', async () => {
    const paths = [
      '/v1/cached/translations/fr',
      '/v1/cached/translations/FR',
      '/v1/cached/translations/%66r',
      '/v1/cached/translations/fr/',
      '/v1/cached/translations//fr',
      '/v1/cached//translations/fr',
      '/v1/cached/translations/fr/home',
      '/v1/cached/translations/fr/home/home.title',
      '/v1/cached/translations/fr?fallback=false',
      '/v1/cached/translations/fr?fallback=explain',
      `/v1/cached/builds/${buildId}/translations/fr`,
      `/v1/cached/builds/${buildId}/translations/FR/home`,
      `/v1/cached/builds/${buildId}/translations/fr/`,
      '/v1/cached/translations/fr-FR',
      '/v1/cached/translations/de/..%2Ffr',
      '/v1/cached/translations/de%2F..%2Ffr',
      '/v1/export/fr?format=json',
      '/v1/translations/fr',
      '/v1/manifest',
    ];
    const seen: Record<string, number> = {};
    for (const path of paths) {
      for (const method of ['GET', 'HEAD']) {
        const res = await t.call(bound.key, method, path);
        const text = await res.text();
        seen[`${method} ${path}`] = res.status;
        expect(text, `${method} ${path}`).not.toContain('Bonjour');
        expect(res.status, `${method} ${path}`).not.toBe(200);
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
      }
    }
    const manifest = await (await t.call(bound.key, 'GET', '/v1/cached/manifest')).json();
    expect(manifest.languages.map((l: { code: string }) => l.code)).toEqual(['de']);
  });

  it("the key's other errors carry CORS for its origin (403 language, 404, 422)", async () => {
    for (const path of ['/v1/cached/translations/fr', '/v1/cached/translations/de/nogroup', '/v1/cached/translations/not_a_code']) {
      const res = await t.call(bound.key, 'GET', path, undefined, { Origin: SHOP });
      expect([403, 404, 422], path).toContain(res.status);
      expect(res.headers.get('access-control-allow-origin'), path).toBe(SHOP);
      expect(res.headers.get('vary'), path).toMatch(/origin/i);
    }
  });

  it('a revoked key gets no 304 (and no build file)', async () => {
    const k = (await (await t.admin('POST', `/projects/${p.projectId}/api-keys`, { kind: 'delivery' })).json()) as Created;
    const first = await t.call(k.key, 'GET', `/v1/cached/builds/${buildId}/translations/de`);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect((await t.admin('DELETE', `/api-keys/${k.id}`)).status).toBe(204);
    for (const path of [`/v1/cached/builds/${buildId}/translations/de`, '/v1/cached/translations/de', '/v1/cached/manifest']) {
      const res = await t.call(k.key, 'GET', path, undefined, { 'If-None-Match': etag });
      expect(res.status, path).toBe(401);
    }
  });
});
