// A revoked key must stop reading (spec 5.3: 401), and docs/deploy.md bounds what an edge already
// holds for it at 300 s. The versioned build URLs are keyed at CloudFront on the API key that fetched
// them and were once `public, max-age=31536000, immutable` there too: a leaked delivery key, revoked,
// kept reading a build at the edge for a year. Apps keep them a year; shared caches 300 s.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { rebuild, seed } from '../support/cache-helpers.ts';

const t = useTestApp();

/** How long a shared cache (CloudFront) may serve the answer without asking the origin: s-maxage, else max-age. */
function sharedCacheSeconds(cacheControl: string | null): number {
  const cc = (cacheControl ?? '').toLowerCase();
  if (/(^|,)\s*(private|no-store|no-cache)\b/.test(cc)) return 0;
  const s = /s-maxage=(\d+)/.exec(cc);
  if (s) return Number(s[1]);
  const m = /(^|[\s,])max-age=(\d+)/.exec(cc);
  return m ? Number(m[2]) : 0;
}

describe('build URLs at a shared cache', () => {
  it('a build URL read with a delivery key may be kept by a shared cache no longer than the documented revocation bound (300 s)', async () => {
    const p = await t.newProject('team');
    await seed(t, p, { 'home.title': { de: ['Hallo', 'approved'] } });
    await rebuild(t, p);
    const delivery = (await (await t.admin('POST', `/projects/${p.projectId}/api-keys`, { kind: 'delivery' })).json()) as { id: string; key: string };
    const manifest = (await (await t.call(delivery.key, 'GET', '/v1/cached/manifest')).json()) as { languages: { code: string; url: string }[] };
    const url = manifest.languages.find((l) => l.code === 'de')!.url;

    const res = await t.call(delivery.key, 'GET', url);
    expect(res.status).toBe(200);
    // The mutable paths respect the bound (max-age=60); the build URL must too, for shared caches.
    expect(sharedCacheSeconds((await t.call(delivery.key, 'GET', '/v1/cached/translations/de')).headers.get('cache-control'))).toBeLessThanOrEqual(300);
    expect(sharedCacheSeconds(res.headers.get('cache-control'))).toBeLessThanOrEqual(300);

    // The origin itself refuses at once after the revoke: only the edge copy would still answer.
    expect((await t.admin('DELETE', `/api-keys/${delivery.id}`)).status).toBe(204);
    expect((await t.call(delivery.key, 'GET', url)).status).toBe(401);
  });
});
