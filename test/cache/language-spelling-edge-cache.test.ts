// The cached routes accept a language code in any casing (BCP 47 is case-insensitive: "pt-br",
// "PT-BR" and "pt-BR" are one language). CloudFront keys its copies on the URL path as requested,
// case-sensitively, and an invalidation path matches by exact (case-sensitive) prefix; a build
// invalidates only the canonical spelling. So only the canonical spelling of a mutable path is
// answered with the public, edge-cacheable Cache-Control; every other spelling gets the same body
// as `private` (the client's cache keeps it as long; the edge only for the policy's 1 s minimum).
// The versioned build URLs are never invalidated (a build id names one content forever): they stay
// public in any spelling.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { rebuild, seed } from '../support/cache-helpers.ts';
import { CACHED_CACHE_CONTROL, IMMUTABLE_CACHE_CONTROL, PRIVATE_CACHE_CONTROL } from '../../functions/cached/routes.ts';

const t = useTestApp();

/** CloudFront's rule: a path ending in `*` drops every URL path starting with what precedes it; case-sensitive. */
const covers = (paths: readonly string[], url: string) =>
  paths.some((p) => (p.endsWith('*') ? url.startsWith(p.slice(0, -1)) : url === p));

const publicAtEdge = (cacheControl: string | null) => !!cacheControl && !/\b(private|no-store)\b/.test(cacheControl);

describe('edge caching of a language path by its spelling', () => {
  it('every spelling answered with an edge-cacheable 200 or 304 is covered by the next build\'s invalidation; others are private', async () => {
    const p = await t.newProject('team');
    const ids = await seed(t, p, { 'home.title': { 'pt-BR': ['Olá', 'approved'] } });
    const invalidated: string[][] = [];
    const edge = t.runtime.deps.edge;
    const original = edge.invalidate;
    edge.invalidate = async (paths, reference) => {
      invalidated.push([...paths]);
      return original.call(edge, paths, reference);
    };
    try {
      await rebuild(t, p);
      const canonical = ['/v1/cached/translations/pt-BR', '/v1/cached/translations/pt-BR/home', '/v1/cached/translations/pt-BR/home/home.title'];
      // An app asks in the casing it uses for its locales ("pt-br", as many do), or percent-encodes.
      const others = [
        '/v1/cached/translations/pt-br',
        '/v1/cached/translations/pt-br?fallback=false',
        '/v1/cached/translations/pt-br/home',
        '/v1/cached/translations/PT-BR/home/home.title',
        '/v1/cached/translations/pt-%42R',
      ];
      const edgeCached: string[] = [];
      for (const url of [...canonical, ...others]) {
        const res = await t.call(p.apiKey, 'GET', url);
        expect(res.status, url).toBe(200);
        const cacheControl = res.headers.get('cache-control');
        expect(cacheControl, url).toBe(canonical.includes(url) ? CACHED_CACHE_CONTROL : PRIVATE_CACHE_CONTROL);
        // A revalidation answers with the same Cache-Control as the 200.
        const again = await t.call(p.apiKey, 'GET', url, undefined, { 'If-None-Match': res.headers.get('etag')! });
        expect(again.status, url).toBe(304);
        expect(again.headers.get('cache-control'), url).toBe(cacheControl);
        if (publicAtEdge(cacheControl)) edgeCached.push(url.split('?')[0]!);
      }
      expect(edgeCached).toEqual(canonical);

      await t.call(p.apiKey, 'PUT', `/v1/keys/${ids['home.title']}/translations/pt-BR`, { value: 'Oi', status: 'approved' });
      invalidated.length = 0;
      await rebuild(t, p);
      expect(invalidated).toHaveLength(1);
      const paths = invalidated[0]!;
      for (const url of edgeCached) expect(covers(paths, url), `${url} not dropped by ${JSON.stringify(paths)}: the edge keeps the old value`).toBe(true);
      // Every spelling reads the new build.
      for (const url of ['/v1/cached/translations/pt-br/home/home.title', '/v1/cached/translations/pt-BR/home/home.title']) {
        expect((await (await t.call(p.apiKey, 'GET', url)).json()).value, url).toBe('Oi');
      }
    } finally {
      edge.invalidate = original;
    }
  });

  it('the versioned build URLs stay immutable and public in any spelling (never invalidated: a build id names one content)', async () => {
    const p = await t.newProject('team');
    await seed(t, p, { 'home.title': { 'pt-BR': ['Olá', 'approved'] } });
    await rebuild(t, p);
    const manifest = await (await t.call(p.apiKey, 'GET', '/v1/cached/manifest')).json();
    const url: string = manifest.languages.find((l: { code: string }) => l.code === 'pt-BR').url;
    expect(url).toContain('/translations/pt-BR');
    for (const spelling of [url, url.replace('pt-BR', 'pt-br'), `${url.replace('pt-BR', 'PT-BR')}/home`]) {
      const res = await t.call(p.apiKey, 'GET', spelling);
      expect(res.status, spelling).toBe(200);
      expect(res.headers.get('cache-control'), spelling).toBe(IMMUTABLE_CACHE_CONTROL);
    }
  });
});
