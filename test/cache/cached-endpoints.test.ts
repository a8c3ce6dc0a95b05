// Sections 3 (cache state), 4.6 and 4.7: rebuild, status, and the four cached reads.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { rebuild, seed } from '../support/cache-helpers.ts';

const t = useTestApp();

const CACHED = ['/v1/cached/manifest', '/v1/cached/translations/de', '/v1/cached/translations/de/home', '/v1/cached/translations/de/home/home.title'];

describe('before the first build', () => {
  it('status is not ready and every cached endpoint answers 503 with a detail string', async () => {
    const p = await t.newProject();
    await seed(t, p, { 'home.title': { de: ['Hallo', 'approved'] } });
    expect(await (await t.call(p.apiKey, 'GET', '/v1/cache/status')).json()).toEqual({
      project_id: p.projectId, last_rebuilt_at: null, ready: false, pending: false, build_state: 'idle', failed_at: null, last_error: null,
    });
    for (const path of CACHED) {
      const res = await t.call(p.apiKey, 'GET', path);
      expect(res.status, path).toBe(503);
      expect((await res.json()).detail).toMatch(/not been built yet.*POST \/v1\/cache\/rebuild/);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });
});

describe('rebuild and status', () => {
  it('POST answers 202 queued at once; status turns ready with a millisecond UTC timestamp', async () => {
    const p = await t.newProject();
    await seed(t, p, { 'home.title': { de: ['Hallo', 'approved'] } });
    const res = await t.call(p.apiKey, 'POST', '/v1/cache/rebuild');
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body).toEqual({ project_id: p.projectId, status: 'queued', message: expect.any(String) });
    await rebuild(t, p);
    const status = await (await t.call(p.apiKey, 'GET', '/v1/cache/status')).json();
    expect(status.ready).toBe(true);
    expect(status.last_rebuilt_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    await rebuild(t, p);
    const later = await (await t.call(p.apiKey, 'GET', '/v1/cache/status')).json();
    expect(later.last_rebuilt_at > status.last_rebuilt_at).toBe(true);
  });
});

describe('cached bodies', () => {
  it('follow the live approved shapes, with approved values of live keys only', async () => {
    const p = await t.newProject();
    const ids = await seed(t, p, {
      'home.title': { de: ['Hallo', 'approved'], en: ['Hello', 'approved'] },
      'home.sub': { de: ['Entwurf', 'draft'], en: ['Sub', 'approved'] },
      'home.gone': { de: ['Weg', 'approved'] },
      'login.button': { de: ['Anmelden', 'approved'] },
    });
    await t.call(p.apiKey, 'DELETE', `/v1/keys/${ids['home.gone']}`);
    await rebuild(t, p);

    for (const [cached, live] of [
      ['/v1/cached/translations/de', '/v1/translations/de'],
      ['/v1/cached/translations/en', '/v1/translations/en'],
      ['/v1/cached/translations/de/home', '/v1/translations/de/home'],
      ['/v1/cached/translations/de/login', '/v1/translations/de/login'],
    ]) {
      const a = await t.call(p.apiKey, 'GET', cached!);
      expect(a.status, cached).toBe(200);
      // Byte for byte: the builder and the live reads make bodies with the same SQL.
      expect(await a.text(), cached).toBe(await (await t.call(p.apiKey, 'GET', live!)).text());
    }
    const language = await (await t.call(p.apiKey, 'GET', '/v1/cached/translations/de')).json();
    expect(language).toEqual({
      project_id: p.projectId,
      language: 'de',
      status_filter: 'approved',
      count: 2,
      translations: { 'home.title': 'Hallo', 'login.button': 'Anmelden' },
    });
    const group = await (await t.call(p.apiKey, 'GET', '/v1/cached/translations/de/home')).json();
    expect(group).toEqual({ project_id: p.projectId, language: 'de', group: 'home', status_filter: 'approved', count: 1, translations: { 'home.title': 'Hallo' } });
    const key = await t.call(p.apiKey, 'GET', '/v1/cached/translations/de/home/home.title');
    expect(await key.json()).toEqual({ value: 'Hallo' });
    // The cached manifest is the live one plus the build and each language's versioned URL and ETag
    // (added fields only: the spec's shape holds).
    const manifest = await (await t.call(p.apiKey, 'GET', '/v1/cached/manifest')).json();
    const liveManifest = await (await t.call(p.apiKey, 'GET', '/v1/manifest')).json();
    expect(manifest.languages.map(({ url: _u, etag: _e, ...spec }: Record<string, unknown>) => spec)).toEqual(liveManifest.languages);
    expect(manifest.project_id).toBe(liveManifest.project_id);
    expect(manifest.languages).toEqual([
      { code: 'de', name: 'German', iso: 'de', approved_count: 2, url: `/v1/cached/builds/${manifest.build_id}/translations/de`, etag: expect.any(String) },
      { code: 'en', name: 'English', iso: 'en', approved_count: 2, url: `/v1/cached/builds/${manifest.build_id}/translations/en`, etag: expect.any(String) },
    ]);
    expect(manifest.built_at).toBe((await (await t.call(p.apiKey, 'GET', '/v1/cache/status')).json()).last_rebuilt_at);
  });

  it('non-ASCII groups, keys and values, quotes and backslashes: the built files are the live bodies byte for byte', async () => {
    // The builder takes Postgres's JSON text as the bytes that arrived and wraps them in the
    // envelope as bytes (core/cache/export-snapshot.ts); multi-byte UTF-8 must come out unchanged.
    const p = await t.newProject();
    await seed(t, p, {
      'écran.título': { de: ['Grüße, "Welt" \\ 👋', 'approved'], ja: ['こんにちは', 'approved'] },
      'écran.ß': { de: ['Straße\nzwei Zeilen', 'approved'] },
      'home.title': { de: ['Hallo', 'approved'] },
    });
    await rebuild(t, p);
    for (const path of ['/translations/de', '/translations/ja', `/translations/de/${encodeURIComponent('écran')}`, '/translations/de/home']) {
      const cached = await t.call(p.apiKey, 'GET', `/v1/cached${path}`);
      expect(cached.status, path).toBe(200);
      const live = await t.call(p.apiKey, 'GET', `/v1${path}`);
      expect(Buffer.from(await cached.arrayBuffer()).equals(Buffer.from(await live.arrayBuffer())), path).toBe(true);
    }
    const group = await (await t.call(p.apiKey, 'GET', `/v1/cached/translations/de/${encodeURIComponent('écran')}`)).json();
    expect(group).toMatchObject({ group: 'écran', count: 2, translations: { 'écran.título': 'Grüße, "Welt" \\ 👋', 'écran.ß': 'Straße\nzwei Zeilen' } });
  });

  it('404s name what is missing: unknown language, group without approved values, draft or deleted or unknown key', async () => {
    const p = await t.newProject();
    const ids = await seed(t, p, {
      'home.title': { de: ['Hallo', 'approved'] },
      'home.draft': { de: ['Entwurf', 'draft'] },
      'only.draft': { de: ['Nur', 'review'] },
    });
    await rebuild(t, p);
    const expect404 = async (path: string, ...words: string[]) => {
      const res = await t.call(p.apiKey, 'GET', path);
      expect(res.status, path).toBe(404);
      const detail = (await res.json()).detail;
      for (const word of words) expect(detail, path).toContain(word);
    };
    await expect404('/v1/cached/translations/fr', "'fr'");
    await expect404('/v1/cached/translations/de/only', "'only'", "'de'");
    await expect404('/v1/cached/translations/de/nope', "'nope'");
    await expect404('/v1/cached/translations/de/bad%2Fgroup', "'bad/group'");
    await expect404('/v1/cached/translations/de/home/home.draft', "'home.draft'", "'home'", "'de'");
    await expect404('/v1/cached/translations/de/home/home.nope', "'home.nope'");
    await expect404('/v1/cached/translations/fr/home/home.title', "'home.title'", "'fr'");
    await expect404('/v1/cached/translations/de/only/home.title', "'home.title'", "'only'");
    expect((await t.call(p.apiKey, 'GET', '/v1/cached/translations/de_DE')).status).toBe(422);
    // The key must belong to the group it is asked under.
    await t.call(p.apiKey, 'DELETE', `/v1/keys/${ids['home.title']}`);
    expect((await t.call(p.apiKey, 'GET', '/v1/cached/translations/de/home/home.title')).status).toBe(200);
  });

  it('serve data as of the last build: later changes and languages appear only after the next', async () => {
    const p = await t.newProject('team');
    const ids = await seed(t, p, { 'home.title': { de: ['Hallo', 'approved'] } });
    await rebuild(t, p);
    await t.call(p.apiKey, 'PUT', `/v1/keys/${ids['home.title']}/translations/de`, { value: 'Servus', status: 'approved' });
    await seed(t, p, { 'home.new': { fr: ['Bonjour', 'approved'] } });
    expect(await (await t.call(p.apiKey, 'GET', '/v1/cached/translations/de/home/home.title')).json()).toEqual({ value: 'Hallo' });
    expect((await t.call(p.apiKey, 'GET', '/v1/cached/translations/fr')).status).toBe(404);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/cached/manifest')).json()).languages.map((l: { code: string }) => l.code)).toEqual(['de']);
    await rebuild(t, p);
    expect(await (await t.call(p.apiKey, 'GET', '/v1/cached/translations/de/home/home.title')).json()).toEqual({ value: 'Servus' });
    expect((await (await t.call(p.apiKey, 'GET', '/v1/cached/translations/fr')).json()).translations).toEqual({ 'home.new': 'Bonjour' });
  });

  it('exotic names and values round-trip through the cache', async () => {
    const p = await t.newProject();
    const value = 'Hello 👋 {name}, you have %d new 新消息 — مرحبا\n<b>x</b> \'; drop table x; --';
    await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'ar' });
    const key = await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'grüße/ünïcode %20 key', group_name: 'Écran 1.0' })).json();
    await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/ar`, { value, status: 'approved' });
    await rebuild(t, p);
    const res = await t.call(p.apiKey, 'GET', `/v1/cached/translations/ar/${encodeURIComponent('Écran 1.0')}/${encodeURIComponent('grüße/ünïcode %20 key')}`);
    expect(res.status).toBe(200);
    expect((await res.json()).value).toBe(value);
    const group = await (await t.call(p.apiKey, 'GET', `/v1/cached/translations/ar/${encodeURIComponent('Écran 1.0')}`)).json();
    expect(group.translations['grüße/ünïcode %20 key']).toBe(value);
  });
});

describe('isolation', () => {
  it("a project never reads another's cache, whatever it sends", async () => {
    const a = await t.newProject();
    const b = await t.newProject();
    await seed(t, a, { 'home.title': { de: ['Geheim', 'approved'] } });
    await rebuild(t, a);
    for (const path of CACHED) {
      expect((await t.call(b.apiKey, 'GET', path)).status, path).toBe(503);
      expect((await t.call(b.apiKey, 'GET', path, undefined, { 'X-Project-Id': a.projectId })).status, path).toBe(403);
    }
    await seed(t, b, { 'other.key': { de: ['Andere', 'approved'] } });
    await rebuild(t, b);
    const bBody = await (await t.call(b.apiKey, 'GET', '/v1/cached/translations/de')).json();
    expect(bBody.translations).toEqual({ 'other.key': 'Andere' });
    expect((await t.call(b.apiKey, 'GET', '/v1/cached/translations/de/home/home.title')).status).toBe(404);
    expect(await (await t.call(b.apiKey, 'GET', '/v1/cache/status')).json()).toMatchObject({ project_id: b.projectId, ready: true });
  });
});
