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

  it('lets scripts read ETag and the rate-limit headers', async () => {
    const p = await t.newProject();
    const res = await t.call(p.apiKey, 'GET', '/v1/keys', undefined, { Origin: 'https://app.example' });
    expect(res.status).toBe(200);
    const exposed = res.headers.get('access-control-expose-headers')!.toLowerCase();
    for (const header of ['etag', 'retry-after', 'x-ratelimit-remaining', 'ratelimit', 'x-request-id']) expect(exposed).toContain(header);
  });

  it('CORS_ORIGINS restricts origins', async () => {
    const app = await startTestApp({ env: { CORS_ORIGINS: 'https://good.example, https://also.example' } });
    try {
      const ask = (origin: string) =>
        app.app.request('/health', { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' } });
      expect((await ask('https://also.example')).headers.get('access-control-allow-origin')).toBe('https://also.example');
      expect((await ask('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await app.close();
    }
  });
});
