// Edge invalidation after a build, against CloudFront's documented matching: an invalidation path
// names a URL exactly (query string included, when the cache key has one) or, ending in '*', every
// URL that starts with what precedes it (CloudFront Developer Guide, "Invalidating files": "If you
// configured CloudFront to forward query strings to your origin, you must include the query strings
// when invalidating files ... or use the * wildcard"). stacks/api.ts keys /v1/cached/* on the
// `fallback` query string.
import { describe, expect, it } from 'vitest';
import { changedPaths, MANIFEST_PATH } from '../../core/cache/edge-invalidation.ts';
import type { BuildIndex, FileEntry, FileSet } from '../../core/cache/layout.ts';
import { checkInvalidationPaths } from '../../core/ports/edge-cache.ts';
import { EDGE_CACHED_QUERY_STRINGS } from '../../stacks/deploy-settings.ts';

const entry = (hash: string): FileEntry => ({ etag: `"${hash}"`, etags: { identity: `"${hash}"`, gzip: `"${hash}-gz"`, br: `"${hash}-br"` }, bytes: 10 });
const set = (hash: string): FileSet => ({ file: entry(hash), groups: { home: entry(`${hash}-home`) } });
const index = (buildId: string, languages: Record<string, string>): BuildIndex => ({
  build_id: buildId,
  project_id: '00000000-0000-4000-8000-000000000000',
  built_at: '2026-11-29T00:00:00.000Z',
  manifest: { etag: `"m-${buildId}"` },
  languages: Object.fromEntries(
    Object.entries(languages).map(([code, hash]) => [code, { ...set(hash), fallback: { chain: ['en'], raw: set(`raw-${hash}`), explain: set(`explain-${hash}`) } }]),
  ),
  registered: Object.keys(languages),
});

const covers = (paths: string[], url: string) => paths.some((p) => (p.endsWith('*') ? url.startsWith(p.slice(0, -1)) : p === url));

describe('edge invalidation of a changed language', () => {
  const paths = changedPaths(index('20261129T000000000Z-00000001', { 'de-AT': 'a', fr: 'f' }), index('20261129T000100000Z-00000002', { 'de-AT': 'b', fr: 'f' }));

  it('covers its file with every ?fallback= query string, and its group and key paths with theirs', () => {
    for (const url of [
      '/v1/cached/translations/de-AT',
      '/v1/cached/translations/de-AT?fallback=true',
      '/v1/cached/translations/de-AT?fallback=false',
      '/v1/cached/translations/de-AT?fallback=explain',
      '/v1/cached/translations/de-AT/home',
      '/v1/cached/translations/de-AT/home?fallback=false',
      '/v1/cached/translations/de-AT/home/home.title?fallback=explain',
    ]) {
      expect(covers(paths, url), `${url} not invalidated by ${JSON.stringify(paths)}`).toBe(true);
    }
  });

  it('leaves unchanged languages, and is a batch the EdgeCache port accepts, one path per language', () => {
    expect(covers(paths, '/v1/cached/translations/fr')).toBe(false);
    expect(covers(paths, '/v1/cached/translations/fr?fallback=false')).toBe(false);
    expect(paths).toEqual([MANIFEST_PATH, '/v1/cached/translations/de-AT*']);
    expect(() => checkInvalidationPaths(paths)).not.toThrow();
  });
});

describe('every copy the edge keys, as stacks/api.ts keys them', () => {
  /** The URLs CloudFront would cache apart for `path`: the first behaviour's pattern that matches decides the query strings keyed. */
  function edgeCopies(path: string): string[] {
    const behaviour = EDGE_CACHED_QUERY_STRINGS.find((b) => (b.pathPattern.endsWith('*') ? path.startsWith(b.pathPattern.slice(0, -1)) : path === b.pathPattern))!;
    const values = ['true', 'false', 'explain', 'x'];
    return [path, ...behaviour.queryStrings.flatMap((name) => values.map((value) => `${path}?${name}=${value}`))];
  }

  it("a build's invalidation covers the manifest's copies (the manifest takes no query string: it is keyed on none) and a changed language's", () => {
    const paths = changedPaths(index('20261129T000000000Z-00000001', { de: 'a' }), index('20261129T000100000Z-00000002', { de: 'b' }));
    for (const path of [MANIFEST_PATH, '/v1/cached/translations/de', '/v1/cached/translations/de/home']) {
      for (const url of edgeCopies(path)) expect(covers(paths, url), `${url} not invalidated by ${JSON.stringify(paths)}`).toBe(true);
    }
    // A build that changed no language still drops every copy of the manifest (it names the build).
    const unchanged = changedPaths(index('20261129T000000000Z-00000001', { de: 'a' }), index('20261129T000100000Z-00000002', { de: 'a' }));
    for (const url of edgeCopies(MANIFEST_PATH)) expect(covers(unchanged, url), url).toBe(true);
    expect(edgeCopies('/v1/cached/translations/de')).toContain('/v1/cached/translations/de?fallback=false');
  });
});
