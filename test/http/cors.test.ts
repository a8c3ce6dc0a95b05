// Web apps call the API from the browser with an X-API-Key header: preflights must pass, and the
// headers clients act on (ETag, rate limits, Retry-After) must be readable by scripts.
import { describe, expect, it } from 'vitest';
import { startTestApp, useTestApp } from '../support/test-app.ts';

const t = useTestApp();

describe('CORS', () => {
  it('answers a preflight for X-API-Key and If-None-Match from any origin by default', async () => {
    const res = await t.app.request('/v1/cached/translations/de', {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key, if-none-match' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('if-none-match');
  });

  it('lets a browser send If-Match on a PUT or DELETE (the versioned writes of values)', async () => {
    for (const method of ['PUT', 'DELETE']) {
      const res = await t.app.request('/v1/keys/00000000-0000-4000-8000-000000000000/translations/de', {
        method: 'OPTIONS',
        headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'x-api-key, content-type, if-match' },
      });
      expect(res.status).toBe(204);
      const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['x-api-key', 'content-type', 'if-match']));
      expect(res.headers.get('access-control-allow-methods')).toContain(method);
    }
  });

  it('lets scripts read ETag and the rate-limit headers', async () => {
    const p = await t.newProject();
    const res = await t.call(p.apiKey, 'GET', '/v1/keys', undefined, { Origin: 'https://app.example' });
    expect(res.status).toBe(200);
    const exposed = res.headers.get('access-control-expose-headers')!.toLowerCase();
    for (const header of ['etag', 'retry-after', 'x-ratelimit-remaining', 'ratelimit', 'x-request-id']) expect(exposed).toContain(header);
  });

  it('through a shared cache: every answer allows any origin, even one made for a caller without Origin', async () => {
    const p = await t.newProject();
    // A server-side client (no Origin) fills a CDN's copy; a browser is then served that copy.
    const serverSide = await t.call(p.apiKey, 'GET', '/v1/keys');
    expect(serverSide.headers.get('access-control-allow-origin')).toBe('*');
    expect(serverSide.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('etag');
    const unauthenticated = await t.app.request('/v1/keys');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('CORS_ORIGINS restricts origins, and then every answer varies on Origin', async () => {
    const app = await startTestApp({ env: { CORS_ORIGINS: 'https://good.example, https://also.example' } });
    try {
      const ask = (origin: string) =>
        app.app.request('/health', { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' } });
      expect((await ask('https://also.example')).headers.get('access-control-allow-origin')).toBe('https://also.example');
      expect((await ask('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
      // Without Origin: no allowance, but Vary: Origin, so a cache keeps that copy for such callers only.
      const plain = await app.app.request('/health');
      expect(plain.headers.get('access-control-allow-origin')).toBeNull();
      expect(plain.headers.get('vary')).toMatch(/Origin/);
      const p = await app.newProject();
      const cached = await app.call(p.apiKey, 'GET', '/v1/keys', undefined, { Origin: 'https://good.example' });
      expect(cached.headers.get('access-control-allow-origin')).toBe('https://good.example');
      expect(cached.headers.get('vary')).toMatch(/Origin/);
    } finally {
      await app.close();
    }
  });
});
