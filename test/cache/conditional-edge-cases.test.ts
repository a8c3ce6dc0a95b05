// Conditional requests and content coding on the cached reads, in the forms real clients send them:
// a browser revalidating with both If-None-Match and If-Modified-Since (RFC 9110 13.2.2: the tag
// decides), and Accept-Encoding parameters with whitespace around ';' (RFC 9110 5.6.6, 12.5.3).
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { rebuild, seed } from '../support/cache-helpers.ts';

const t = useTestApp();

describe('a language-bound delivery key revalidating the manifest', () => {
  async function deliveryKey(): Promise<{ p: TestProject; key: string; etag: string; lastModified: string }> {
    const p = await t.newProject('team');
    await seed(t, p, { 'home.title': { de: ['Hallo', 'approved'], fr: ['Bonjour', 'approved'] } });
    await rebuild(t, p);
    const created = await t.admin('POST', `/projects/${p.projectId}/api-keys`, { kind: 'delivery', allowed_languages: ['de'] });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };
    const first = await t.call(key, 'GET', '/v1/cached/manifest');
    expect(first.status).toBe(200);
    return { p, key, etag: first.headers.get('etag')!, lastModified: first.headers.get('last-modified')! };
  }

  it('with a stale If-None-Match and a current If-Modified-Since (as browsers send them) gets the manifest, as a live key does', async () => {
    const { p, key, lastModified } = await deliveryKey();
    const stale = { 'If-None-Match': '"stale"', 'If-Modified-Since': lastModified };
    expect((await t.call(p.apiKey, 'GET', '/v1/cached/manifest', undefined, stale)).status).toBe(200);
    const res = await t.call(key, 'GET', '/v1/cached/manifest', undefined, stale);
    expect(res.status).toBe(200);
    expect((await res.json()).languages.map((l: { code: string }) => l.code)).toEqual(['de']);
  });

  it("with its own current tag (and If-Modified-Since) gets a 304 naming that tag", async () => {
    const { key, etag, lastModified } = await deliveryKey();
    const res = await t.call(key, 'GET', '/v1/cached/manifest', undefined, { 'If-None-Match': etag, 'If-Modified-Since': lastModified });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(etag);
  });

  it("with If-Modified-Since alone gets a 304 naming the key's own tag, not the stored manifest's", async () => {
    const { p, key, etag, lastModified } = await deliveryKey();
    const stored = (await t.call(p.apiKey, 'GET', '/v1/cached/manifest')).headers.get('etag');
    expect(stored).not.toBe(etag);
    const res = await t.call(key, 'GET', '/v1/cached/manifest', undefined, { 'If-Modified-Since': lastModified });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(etag);
    // That tag revalidates.
    expect((await t.call(key, 'GET', '/v1/cached/manifest', undefined, { 'If-None-Match': res.headers.get('etag')! })).status).toBe(304);
  });
});

describe('content-coding negotiation', () => {
  async function built(): Promise<TestProject> {
    const p = await t.newProject('team');
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`home.k${i}`, { de: [`Wert Nummer ${i} mit etwas Text`, 'approved'] as [string, 'approved'] }]));
    await seed(t, p, many);
    await rebuild(t, p);
    return p;
  }

  it("a coding refused with whitespace before ';' ('br ;q=0') is not served; the others still are", async () => {
    const p = await built();
    const refused = await t.call(p.apiKey, 'GET', '/v1/cached/translations/de', undefined, { 'Accept-Encoding': 'gzip, br ;q=0, *;q=0.1' });
    expect(refused.status).toBe(200);
    expect(refused.headers.get('content-encoding')).toBe('gzip');
    const spaced = await t.call(p.apiKey, 'GET', '/v1/cached/translations/de', undefined, { 'Accept-Encoding': 'br ; q=1, gzip ;q=0.5' });
    expect(spaced.headers.get('content-encoding')).toBe('br');
  });
});
