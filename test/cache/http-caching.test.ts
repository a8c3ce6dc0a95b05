// Strong ETags, Cache-Control, 304s without a body, and stored gzip/brotli variants.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { rebuild, seed } from '../support/cache-helpers.ts';
import { CACHED_CACHE_CONTROL } from '../../functions/cached/routes.ts';

const t = useTestApp();

async function builtProject(): Promise<TestProject> {
  const p = await t.newProject();
  const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`home.k${i}`, { de: [`Wert Nummer ${i} mit etwas Text`, 'approved'] as [string, 'approved'] }]));
  await seed(t, p, many);
  await rebuild(t, p);
  return p;
}

const PATHS = ['/v1/cached/manifest', '/v1/cached/translations/de', '/v1/cached/translations/de/home', '/v1/cached/translations/de/home/home.k1'];

describe('validators and caching headers', () => {
  it('every cached response has a strong ETag, Cache-Control and Vary; If-None-Match gives 304 without a body', async () => {
    const p = await builtProject();
    for (const path of PATHS) {
      const res = await t.call(p.apiKey, 'GET', path);
      expect(res.status, path).toBe(200);
      const etag = res.headers.get('etag')!;
      expect(etag, path).toMatch(/^"[^"]+"$/);
      expect(res.headers.get('cache-control')).toBe(CACHED_CACHE_CONTROL);
      expect(res.headers.get('vary')).toContain('Accept-Encoding');
      expect(res.headers.get('last-modified')).toBeTruthy();
      for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await t.call(p.apiKey, 'GET', path, undefined, { 'If-None-Match': inm });
        expect(again.status, `${path} ${inm}`).toBe(304);
        expect(await again.text()).toBe('');
        expect(again.headers.get('etag')).toBe(etag);
        expect(again.headers.get('cache-control')).toBe(CACHED_CACHE_CONTROL);
      }
      expect((await t.call(p.apiKey, 'GET', path, undefined, { 'If-None-Match': '"stale"' })).status).toBe(200);
    }
  });

  it('If-Modified-Since at or after Last-Modified gives 304 (when no If-None-Match is sent); an earlier, future or broken date a 200', async () => {
    const p = await builtProject();
    for (const path of PATHS) {
      const res = await t.call(p.apiKey, 'GET', path);
      const lastModified = res.headers.get('last-modified')!;
      const at = Date.parse(lastModified);
      const since = (ms: number) => new Date(ms).toUTCString();
      // The date a client got back (a later one would still lie in the future here: the build is new).
      for (const ims of [lastModified]) {
        const again = await t.call(p.apiKey, 'GET', path, undefined, { 'If-Modified-Since': ims });
        expect(again.status, `${path} ${ims}`).toBe(304);
        expect(await again.text()).toBe('');
        expect(again.headers.get('last-modified')).toBe(lastModified);
      }
      for (const ims of [since(at - 1000), since(Date.now() + 86_400_000), 'yesterday']) {
        expect((await t.call(p.apiKey, 'GET', path, undefined, { 'If-Modified-Since': ims })).status, `${path} ${ims}`).toBe(200);
      }
      // If-None-Match decides when both are sent (RFC 9110 13.2.2): a stale tag is a 200 whatever the date.
      expect((await t.call(p.apiKey, 'GET', path, undefined, { 'If-None-Match': '"stale"', 'If-Modified-Since': lastModified })).status).toBe(200);
    }
  });

  it('a rebuild with changed data changes the ETag; one without changes keeps it', async () => {
    const p = await builtProject();
    const first = (await t.call(p.apiKey, 'GET', '/v1/cached/translations/de')).headers.get('etag');
    await rebuild(t, p);
    expect((await t.call(p.apiKey, 'GET', '/v1/cached/translations/de')).headers.get('etag')).toBe(first);
    const key = (await (await t.call(p.apiKey, 'GET', '/v1/keys?group=home')).json()).keys[0];
    await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'neu', status: 'approved' });
    await rebuild(t, p);
    const res = await t.call(p.apiKey, 'GET', '/v1/cached/translations/de', undefined, { 'If-None-Match': first! });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).not.toBe(first);
  });

  it('a build published within the second of the build before it never answers If-Modified-Since alone with a 304; the next second\'s build does again', async () => {
    const p = await builtProject();
    const key = (await (await t.call(p.apiKey, 'GET', '/v1/keys?group=home')).json()).keys.find((k: { key: string }) => k.key === 'home.k1');
    const deps = t.runtime.deps as { clock: { now(): Date } };
    const real = deps.clock;
    // The builder's clock held in one second (in the past: a date after the request's is no validator).
    const second = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    const at = (ms: number) => (deps.clock = { now: () => new Date(ms) });
    try {
      at(second + 100);
      await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'eins', status: 'approved' });
      await rebuild(t, p);
      const older = new Map<string, string>();
      for (const path of PATHS) older.set(path, (await t.call(p.apiKey, 'GET', path)).headers.get('last-modified')!);
      at(second + 900);
      await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'zwei', status: 'approved' });
      await rebuild(t, p);
      for (const path of PATHS) {
        const res = await t.call(p.apiKey, 'GET', path, undefined, { 'If-Modified-Since': older.get(path)! });
        expect(res.status, path).toBe(200);
        expect(res.headers.get('last-modified'), path).toBe(older.get(path));
        // Its tag still revalidates it.
        expect((await t.call(p.apiKey, 'GET', path, undefined, { 'If-None-Match': res.headers.get('etag')! })).status, path).toBe(304);
      }
      expect(((await (await t.call(p.apiKey, 'GET', '/v1/cached/translations/de/home/home.k1')).json()) as { value: string }).value).toBe('zwei');
      at(second + 1_000);
      await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'drei', status: 'approved' });
      await rebuild(t, p);
      for (const path of PATHS) {
        const res = await t.call(p.apiKey, 'GET', path);
        const again = await t.call(p.apiKey, 'GET', path, undefined, { 'If-Modified-Since': res.headers.get('last-modified')! });
        expect(again.status, path).toBe(304);
      }
    } finally {
      deps.clock = real;
    }
  });

  it('304 revalidations do not count against the daily quota', async () => {
    const p = await builtProject();
    const res = await t.call(p.apiKey, 'GET', '/v1/cached/translations/de');
    const etag = res.headers.get('etag')!;
    const remaining = Number(res.headers.get('x-ratelimit-remaining'));
    for (let i = 0; i < 5; i++) {
      expect((await t.call(p.apiKey, 'GET', '/v1/cached/translations/de', undefined, { 'If-None-Match': etag })).status).toBe(304);
    }
    const after = await t.call(p.apiKey, 'GET', '/v1/cached/translations/de');
    expect(Number(after.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
  });
});

describe('stored compression variants', () => {
  it('serve br, gzip or identity by Accept-Encoding, each decoding to the same JSON', async () => {
    const p = await builtProject();
    for (const path of PATHS.slice(1, 3)) {
      const plain = await t.call(p.apiKey, 'GET', path);
      expect(plain.headers.get('content-encoding')).toBeNull();
      const identity = Buffer.from(await plain.arrayBuffer());

      const br = await t.call(p.apiKey, 'GET', path, undefined, { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(br.headers.get('content-encoding')).toBe('br');
      const brBytes = Buffer.from(await br.arrayBuffer());
      expect(brBytes.length).toBeLessThan(identity.length);
      expect(brotliDecompressSync(brBytes).equals(identity)).toBe(true);

      const gz = await t.call(p.apiKey, 'GET', path, undefined, { 'Accept-Encoding': 'gzip' });
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).equals(identity)).toBe(true);

      const refused = await t.call(p.apiKey, 'GET', path, undefined, { 'Accept-Encoding': 'br;q=0, gzip;q=0' });
      expect(refused.headers.get('content-encoding')).toBeNull();

      const etags = new Set([plain, br, gz].map((r) => r.headers.get('etag')));
      expect(etags.size).toBe(3); // one strong validator per representation
      // Any representation's etag revalidates: the content is the same.
      expect((await t.call(p.apiKey, 'GET', path, undefined, { 'Accept-Encoding': 'br', 'If-None-Match': gz.headers.get('etag')! })).status).toBe(304);
    }
  });
});
