// GET /docs: the API's documentation page, Swagger UI over /openapi.json. Swagger UI's files come
// from the installed swagger-ui-dist package and are served from here, never from a public CDN: the
// page names same-origin URLs only, and its Content-Security-Policy allows nothing else (no
// validator badge, no remote fonts). Asset names carry a hash of their bytes, so browsers keep them
// a year; the page itself is revalidated. The files are read (and compressed) once, on the first
// request, not at startup: a process that never serves /docs never reads 2 MB it does not need.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { isNotModified, pickEncoding } from '../http/conditional.ts';
import { respond } from '../http/response-headers.ts';
import type { RouteGroup } from '../http/route-group.ts';
import { notFound } from '../../core/errors.ts';
import type { Encoding } from '../../core/cache/layout.ts';

export type DocsOptions = {
  /** Where the route group is mounted. */
  prefix?: string;
  /** The OpenAPI document the page shows (same origin). */
  specUrl?: string;
  /** A directory holding swagger-ui-dist's files; by default the installed package's. */
  assetsDir?: string;
};

type Asset = { type: string; variants: Record<Encoding, { body: Uint8Array; etag: string }> };
type Loaded = { page: string; pageEtag: string; assets: Map<string, Asset> };

/** swagger-ui-dist's files the page uses, by name in the package, with their media types. */
const PACKAGE_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** A year: asset names change with their bytes, so a cached copy is never stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Swagger UI's components set inline styles.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  // The spec, and "Try it out" against this same server.
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const etagOf = (bytes: Uint8Array) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`;

/** `swagger-ui-bundle.js` -> `swagger-ui-bundle.<hash>.js`: a new name whenever the bytes change. */
function hashedName(name: string, bytes: Uint8Array): string {
  const dot = name.lastIndexOf('.');
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  return `${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
}

// Compressed once, at the levels the cache builds use (a few percent from the best, many times faster).
function asset(bytes: Uint8Array, type: string): Asset {
  const variant = (body: Uint8Array) => ({ body, etag: etagOf(body) });
  const identity = variant(bytes);
  if (type.startsWith('image/')) return { type, variants: { identity, gzip: identity, br: identity } };
  return {
    type,
    variants: {
      identity,
      gzip: variant(gzipSync(bytes, { level: 6 })),
      br: variant(brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } })),
    },
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function initializer(specUrl: string): string {
  // BaseLayout: no top bar, so the page shows this API's document and cannot be pointed at another.
  return `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(specUrl)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;
}

function installedAssetsDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

async function load(options: Required<Pick<DocsOptions, 'prefix' | 'specUrl'>> & { assetsDir?: string }): Promise<Loaded> {
  const dir = options.assetsDir ?? installedAssetsDir();
  const assets = new Map<string, Asset>();
  const urls: Record<string, string> = {};
  const add = (name: string, bytes: Uint8Array, type: string) => {
    const hashed = hashedName(name, bytes);
    assets.set(hashed, asset(bytes, type));
    urls[name] = `${options.prefix}/assets/${hashed}`;
  };
  for (const [name, type] of Object.entries(PACKAGE_FILES)) {
    let bytes: Uint8Array = await readFile(join(dir, name));
    // A source map this server does not serve would only be a 404 in the browser's devtools.
    if (type.startsWith('text/')) bytes = Buffer.from(bytes.toString().replace(/\n?\/[*/]# sourceMappingURL=[^\n]*\s*$/, '\n'));
    add(name, bytes, type);
  }
  add('docs.js', Buffer.from(initializer(options.specUrl)), 'text/javascript; charset=utf-8');
  const page = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tms API</title>
<link rel="stylesheet" href="${escapeHtml(urls['swagger-ui.css']!)}">
<link rel="stylesheet" href="${escapeHtml(urls['index.css']!)}">
<link rel="icon" type="image/png" sizes="32x32" href="${escapeHtml(urls['favicon-32x32.png']!)}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${escapeHtml(urls['swagger-ui-bundle.js']!)}"></script>
<script src="${escapeHtml(urls['docs.js']!)}"></script>
</body>
</html>
`;
  return { page, pageEtag: etagOf(Buffer.from(page)), assets };
}

/** The /docs route group; `docsGroup` is the one the service mounts. */
export function createDocsGroup(options: DocsOptions = {}): RouteGroup {
  const prefix = options.prefix ?? '/docs';
  const settings = { prefix, specUrl: options.specUrl ?? '/openapi.json', ...(options.assetsDir ? { assetsDir: options.assetsDir } : {}) };
  let loading: Promise<Loaded> | undefined;
  const loaded = () => {
    // A failed read (the package missing from a bundle) is retried by the next request, not kept.
    loading ??= load(settings).catch((error: unknown) => {
      loading = undefined;
      throw new Error(`API docs: cannot read swagger-ui-dist's files (${String(error)})`, { cause: error });
    });
    return loading;
  };

  const page = async (c: Context<AppEnv>) => {
    const { page, pageEtag } = await loaded();
    const headers: Record<string, string> = {
      ETag: pageEtag,
      'Cache-Control': 'no-cache',
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    };
    if (isNotModified(c.req.header('if-none-match'), [pageEtag])) return respond(c, null, 304, headers);
    headers['Content-Type'] = 'text/html; charset=utf-8';
    return respond(c, page, 200, headers);
  };

  const routes = new Hono<AppEnv>().get('/', page).get('/assets/:name', async (c) => {
    const found = (await loaded()).assets.get(c.req.param('name'));
    if (!found) throw notFound('No such documentation asset');
    const encoding = pickEncoding(c.req.header('accept-encoding'));
    const variant = found.variants[encoding];
    const headers: Record<string, string> = {
      // One strong etag per coding (RFC 9110 8.8.3); any of them revalidates, as on the cached routes.
      ETag: variant.etag,
      'Cache-Control': IMMUTABLE,
      Vary: 'Accept-Encoding',
      'X-Content-Type-Options': 'nosniff',
    };
    const etags = Object.values(found.variants).map((v) => v.etag);
    if (isNotModified(c.req.header('if-none-match'), etags)) return respond(c, null, 304, headers);
    headers['Content-Type'] = found.type;
    if (variant !== found.variants.identity) headers['Content-Encoding'] = encoding;
    return respond(c, variant.body as Uint8Array<ArrayBuffer>, 200, headers);
  });

  return { name: 'docs', prefix, routes };
}

export const docsGroup = createDocsGroup();
