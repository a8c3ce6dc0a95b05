// The versioned build URLs (issue 16): /v1/cached/builds/{build_id}/translations/{language}[/{group}]
// serve a named build of the caller's project, immutable for a year, with strong ETags, 304s and the
// stored encodings; the cached manifest names the current build and each language's URL and ETag.
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { rebuild, seed } from '../support/cache-helpers.ts';
import { CACHED_CACHE_CONTROL, IMMUTABLE_CACHE_CONTROL } from '../../functions/cached/routes.ts';
import { buildGroupPath, buildLanguagePath } from '../../core/cache/build-urls.ts';
import { MAX_KEPT_BUILDS } from '../../core/cache/build-project-cache.ts';

const t = useTestApp();

type Manifest = { project_id: string; build_id: string; built_at: string; languages: { code: string; url: string; etag: string; approved_count: number }[] };

async function builtProject(): Promise<{ p: TestProject; ids: Record<string, string>; manifest: Manifest }> {
  const p = await t.newProject('team');
  const ids = await seed(t, p, {
    'home.title': { de: ['Hallo', 'approved'], en: ['Hello', 'approved'] },
    'home.body': { de: ['Text '.repeat(40), 'approved'] },
    'nav.back': { de: ['Zurück', 'approved'], en: ['Back', 'approved'] },
  });
  await rebuild(t, p);
  const manifest = (await (await t.call(p.apiKey, 'GET', '/v1/cached/manifest')).json()) as Manifest;
  return { p, ids, manifest };
}

describe('the manifest names the build', () => {
  it("lists build_id, built_at and per language the build URL and its file's ETag; every URL resolves to that file", async () => {
    const { p, manifest } = await builtProject();
    expect(manifest.build_id).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{8}$/);
    expect(manifest.built_at).toBe((await (await t.call(p.apiKey, 'GET', '/v1/cache/status')).json()).last_rebuilt_at);
    expect(manifest.languages.map((l) => l.code)).toEqual(['de', 'en']);
    for (const language of manifest.languages) {
      expect(language.url).toBe(buildLanguagePath(manifest.build_id, language.code));
      const res = await t.call(p.apiKey, 'GET', language.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toBe(language.etag);
      // The same bytes as the mutable path serves for the current build.
      expect(await res.text()).toBe(await (await t.call(p.apiKey, 'GET', `/v1/cached/translations/${language.code}`)).text());
      // The manifest's ETag revalidates the file.
      expect((await t.call(p.apiKey, 'GET', language.url, undefined, { 'If-None-Match': language.etag })).status).toBe(304);
    }
  });

  it('the live manifest stays as it was: no build fields', async () => {
    const { p } = await builtProject();
    const live = await (await t.call(p.apiKey, 'GET', '/v1/manifest')).json();
    expect(Object.keys(live).sort()).toEqual(['languages', 'project_id']);
    expect(Object.keys(live.languages[0]).sort()).toEqual(['approved_count', 'code', 'iso', 'name']);
  });
});

describe('build URLs', () => {
  it('are immutable for a year, with a strong ETag, Vary, Last-Modified, 304s and the stored encodings', async () => {
    const { p, manifest } = await builtProject();
    for (const path of [buildLanguagePath(manifest.build_id, 'de'), buildGroupPath(manifest.build_id, 'de', 'home')]) {
      const res = await t.call(p.apiKey, 'GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control')).toBe(IMMUTABLE_CACHE_CONTROL);
      expect(res.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
      expect(res.headers.get('vary')).toBe('Accept-Encoding, X-API-Key');
      expect(res.headers.get('last-modified')).toBe(new Date(manifest.built_at).toUTCString());
      const identity = Buffer.from(await res.arrayBuffer());
      const again = await t.call(p.apiKey, 'GET', path, undefined, { 'If-None-Match': res.headers.get('etag')! });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('cache-control')).toBe(IMMUTABLE_CACHE_CONTROL);
      const br = await t.call(p.apiKey, 'GET', path, undefined, { 'Accept-Encoding': 'gzip, br' });
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(br.headers.get('etag')).toMatch(/-br"$/);
      expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).equals(identity)).toBe(true);
    }
    const group = await (await t.call(p.apiKey, 'GET', buildGroupPath(manifest.build_id, 'de', 'home'))).json();
    expect(group).toMatchObject({ language: 'de', group: 'home', count: 2 });
  });

  it('keep serving a replaced build (a client with a manifest from a minute ago), while the mutable paths move on', async () => {
    const { p, ids, manifest: old } = await builtProject();
    await t.call(p.apiKey, 'PUT', `/v1/keys/${ids['home.title']}/translations/de`, { value: 'Servus', status: 'approved' });
    await rebuild(t, p);
    const current = (await (await t.call(p.apiKey, 'GET', '/v1/cached/manifest')).json()) as Manifest;
    expect(current.build_id).not.toBe(old.build_id);
    expect(current.languages.find((l) => l.code === 'de')!.etag).not.toBe(old.languages.find((l) => l.code === 'de')!.etag);
    // en did not change: the same ETag in the new build, so a client keeps its copy.
    expect(current.languages.find((l) => l.code === 'en')!.etag).toBe(old.languages.find((l) => l.code === 'en')!.etag);
    const before = await (await t.call(p.apiKey, 'GET', buildLanguagePath(old.build_id, 'de'))).json();
    const after = await (await t.call(p.apiKey, 'GET', buildLanguagePath(current.build_id, 'de'))).json();
    expect(before.translations['home.title']).toBe('Hallo');
    expect(after.translations['home.title']).toBe('Servus');
    expect((await (await t.call(p.apiKey, 'GET', '/v1/cached/translations/de')).json()).translations['home.title']).toBe('Servus');
  });

  it("another project's build id is a 404, as is an unknown build, language or group; a malformed build id is a 422", async () => {
    const { p, manifest } = await builtProject();
    const other = await builtProject();
    const notFound = async (apiKey: string, path: string, ...words: string[]) => {
      const res = await t.call(apiKey, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { detail } = await res.json();
      for (const word of words) expect(detail).toContain(word);
    };
    await notFound(other.p.apiKey, buildLanguagePath(manifest.build_id, 'de'), manifest.build_id);
    await notFound(p.apiKey, buildLanguagePath(other.manifest.build_id, 'de'), other.manifest.build_id);
    await notFound(p.apiKey, buildGroupPath(other.manifest.build_id, 'de', 'home'), other.manifest.build_id);
    await notFound(p.apiKey, buildLanguagePath('20200101T000000000Z-00000000', 'de'), 'not in the translation cache');
    await notFound(p.apiKey, buildLanguagePath(manifest.build_id, 'fr'), "'fr'");
    await notFound(p.apiKey, buildGroupPath(manifest.build_id, 'de', 'missing'), "'missing'");
    for (const bad of ['latest', '..x', '20200101T000000000Z-0000000G', `${manifest.build_id}x`]) {
      const res = await t.call(p.apiKey, 'GET', buildLanguagePath(bad, 'de'));
      expect(res.status, bad).toBe(422);
      expect((await res.json()).detail[0].loc).toEqual(['path', 'build_id']);
    }
    expect((await t.call(p.apiKey, 'GET', buildLanguagePath(manifest.build_id, 'not a code'))).status).toBe(422);
    expect((await t.call(undefined, 'GET', buildLanguagePath(manifest.build_id, 'de'))).status).toBe(401);
  });
});

describe('a build no longer kept', () => {
  it(`(past the ${MAX_KEPT_BUILDS}-build limit, minutes old) is a 404 for every language, read before or not, saying to read the manifest again`, async () => {
    const { p, ids, manifest: old } = await builtProject();
    // de read from the old build while it was current; en never.
    expect((await t.call(p.apiKey, 'GET', buildLanguagePath(old.build_id, 'de'))).status).toBe(200);
    for (let i = 0; i < MAX_KEPT_BUILDS; i++) {
      await t.call(p.apiKey, 'PUT', `/v1/keys/${ids['home.title']}/translations/de`, { value: `Hallo ${i}`, status: 'approved' });
      await rebuild(t, p);
    }
    for (const path of [buildLanguagePath(old.build_id, 'de'), buildLanguagePath(old.build_id, 'en'), buildGroupPath(old.build_id, 'en', 'nav')]) {
      const res = await t.call(p.apiKey, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { detail } = await res.json();
      expect(detail).toContain(old.build_id);
      expect(detail).toContain('no longer kept');
      expect(detail).toContain('GET /v1/cached/manifest again');
    }
    // The current manifest's URLs serve.
    const current = (await (await t.call(p.apiKey, 'GET', '/v1/cached/manifest')).json()) as Manifest;
    expect((await (await t.call(p.apiKey, 'GET', current.languages[0]!.url)).json()).translations['home.title']).toBe(`Hallo ${MAX_KEPT_BUILDS - 1}`);
  });
});

describe('a language with no file says why', () => {
  it('registered with a chain but no value of its own: not built, and the 404 says so; an unregistered language is not a language of the project', async () => {
    const p = await t.newProject('team');
    await seed(t, p, { 'home.title': { en: ['Hello', 'approved'] } });
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'fr' })).status).toBe(201);
    expect((await t.admin('PATCH', `/projects/${p.projectId}`, { fallbacks: { fr: ['en'] } })).status).toBe(200);
    await rebuild(t, p);
    const { build_id: buildId } = (await (await t.call(p.apiKey, 'GET', '/v1/cached/manifest')).json()) as Manifest;
    const detailOf = async (path: string) => {
      const res = await t.call(p.apiKey, 'GET', path);
      expect(res.status, path).toBe(404);
      const { detail } = await res.json();
      expect(detail, path).not.toContain('added since');
      return detail as string;
    };
    for (const path of ['/v1/cached/translations/fr', '/v1/cached/translations/fr/home', buildLanguagePath(buildId, 'fr'), buildGroupPath(buildId, 'fr', 'home')]) {
      const detail = await detailOf(path);
      expect(detail).toContain("Language 'fr' had no translation values of its own");
      expect(detail).toContain('fallback chain');
    }
    // What i18next asks for by default: never registered.
    for (const code of ['pt', 'zh', 'zh-TW', 'dev']) {
      for (const path of [`/v1/cached/translations/${code}`, `/v1/cached/translations/${code}/home`, buildLanguagePath(buildId, code)]) {
        expect(await detailOf(path)).toContain(`Language '${code}' is not a language of this project`);
      }
    }
  });
});

describe('mutable cached paths', () => {
  it('keep max-age=60 with stale-while-revalidate and stale-if-error; errors stay no-store', async () => {
    const { p } = await builtProject();
    for (const path of ['/v1/cached/manifest', '/v1/cached/translations/de', '/v1/cached/translations/de/home', '/v1/cached/translations/de/home/home.title']) {
      expect((await t.call(p.apiKey, 'GET', path)).headers.get('cache-control'), path).toBe(CACHED_CACHE_CONTROL);
    }
    expect(CACHED_CACHE_CONTROL).toMatch(/^public, max-age=60, stale-while-revalidate=\d+, stale-if-error=\d+$/);
    expect((await t.call(p.apiKey, 'GET', '/v1/cached/translations/fr')).headers.get('cache-control')).toBe('no-store');
    const fresh = await t.newProject();
    const notReady = await t.call(fresh.apiKey, 'GET', '/v1/cached/manifest');
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get('cache-control')).toBe('no-store');
  });
});
