// GET /docs: Swagger UI over /openapi.json, every file served by us from swagger-ui-dist (never a
// CDN), the page naming same-origin URLs only, assets cacheable for good under hashed names.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { allRouteGroups } from '../../functions/route-groups.ts';
import { createDocsGroup, docsGroup } from '../../functions/docs/routes.ts';
import { describedApp } from '../../scripts/openapi.ts';

const app = describedApp([...allRouteGroups, docsGroup]);
const distDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const TYPES: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8', png: 'image/png' };

let page: Response;
let html: string;
let urls: string[];
beforeAll(async () => {
  page = await app.request('/docs');
  html = await page.text();
  urls = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
});

const asset = (name: string) => {
  const url = urls.find((u) => u.split('/').pop()!.startsWith(`${name}.`));
  if (!url) throw new Error(`the page does not reference ${name}`);
  return url;
};

describe('the documentation page', () => {
  it('is an HTML page that allows only its own origin', () => {
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:|\*/);
    expect(html).toContain('<div id="swagger-ui"></div>');
  });

  it('references same-origin URLs only, every one of them served', async () => {
    expect(urls.length).toBe(5);
    expect(html).not.toMatch(/(https?:)?\/\/[\w.-]/);
    for (const url of urls) {
      expect(url, url).toMatch(/^\/docs\/assets\/[\w.-]+$/);
      const res = await app.request(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type'), url).toBe(TYPES[url.split('.').pop()!]);
      expect(res.headers.get('cache-control'), url).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('etag'), url).toMatch(/^"[\w-]+"$/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it("serves swagger-ui-dist's own files, compressed when the client accepts it, 304 when current", async () => {
    const url = asset('swagger-ui-bundle');
    const original = await readFile(join(distDir, 'swagger-ui-bundle.js'));
    const identity = await app.request(url);
    expect(Buffer.from(await identity.arrayBuffer()).equals(original)).toBe(true);
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(identity.headers.get('vary')).toBe('Accept-Encoding');

    const br = await app.request(url, { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.length).toBeLessThan(original.length / 3);
    expect(brotliDecompressSync(brBytes).equals(original)).toBe(true);
    const gzip = await app.request(url, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).equals(original)).toBe(true);
    expect(br.headers.get('etag')).not.toBe(identity.headers.get('etag'));

    for (const etag of [identity.headers.get('etag')!, `W/${br.headers.get('etag')}`]) {
      const again = await app.request(url, { headers: { 'If-None-Match': etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    }
    const css = await (await app.request(asset('swagger-ui'))).text();
    expect(css).toContain('.swagger-ui');
    expect(css).not.toContain('sourceMappingURL');
  });

  it('starts Swagger UI on /openapi.json, which the same server answers, with no remote validator', async () => {
    const init = await (await app.request(asset('docs'))).text();
    expect(init).toContain('url: "/openapi.json"');
    expect(init).toContain('validatorUrl: null');
    expect(init).toContain("layout: 'BaseLayout'");
    const spec = await app.request('/openapi.json');
    expect(spec.status).toBe(200);
    expect((await spec.json()).openapi).toMatch(/^3\.1/);
  });

  it('revalidates the page with its ETag; an unknown asset is a 404 in the envelope', async () => {
    const again = await app.request('/docs', { headers: { 'If-None-Match': page.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const missing = await app.request('/docs/assets/swagger-ui-bundle.000000000000.js');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: 'No such documentation asset' });
  });

  it('takes another prefix, and fails a request (not the process) when the files are missing', async () => {
    const moved = describedApp([createDocsGroup({ prefix: '/api-docs' })]);
    const movedHtml = await (await moved.request('/api-docs')).text();
    const movedUrls = [...movedHtml.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    expect(movedUrls.every((u) => u.startsWith('/api-docs/assets/'))).toBe(true);
    expect((await moved.request(movedUrls[0]!)).status).toBe(200);

    const broken = describedApp([createDocsGroup({ assetsDir: join(distDir, 'not-there') })]);
    for (let i = 0; i < 2; i++) {
      const res = await broken.request('/docs');
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ detail: 'Internal server error' });
    }
  });
});
