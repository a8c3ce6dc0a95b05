// CORS for browser apps: they send X-API-Key, which needs a preflight, and read ETag and the
// rate-limit headers. With a list of origins (CORS_ORIGINS), the cached reads' preflight is answered
// for any origin, because a delivery key may be bound to origins of its own that the server's list
// does not name, and a preflight carries no key to look them up: the real request is then judged by
// its key (api-key-auth.ts adds Access-Control-Allow-Origin for a delivery key's own origins, and
// refuses others), while every other answer carries CORS headers only for the server's list, except
// a refusal there before any key verified (401, the failed-auth 429), which any origin may read.
// Hono's own cors middleware touches c.res before the handler runs, which makes
// Hono rebuild every response as a streamed one; this one hands its headers to response-headers.ts.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.ts';
import { addHeaders } from './response-headers.ts';

const ALLOW_HEADERS = 'X-API-Key, X-Project-Id, Content-Type, If-None-Match, If-Match, Authorization, X-Request-Id, Idempotency-Key';
const ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** The cached reads, preflighted from an origin the server's list does not name: reads only. */
const OPEN_METHODS = 'GET, HEAD';

export function cors(options: {
  origins: '*' | readonly string[];
  exposeHeaders: readonly string[];
  /** Path prefixes whose preflights any origin gets answered (the delivery-key reads). */
  openPreflightPrefixes?: readonly string[];
}): MiddlewareHandler<AppEnv> {
  const openPrefixes = options.openPreflightPrefixes ?? [];
  const openPreflight = (path: string) => openPrefixes.some((prefix) => path.startsWith(prefix));
  const expose = options.exposeHeaders.join(', ');
  const allowed = (origin: string | undefined): string | undefined => {
    if (options.origins === '*') return '*';
    return origin !== undefined && options.origins.includes(origin) ? origin : undefined;
  };
  const anyOrigin = options.origins === '*';
  return async function corsHeaders(c, next) {
    const origin = c.req.header('origin');
    // A response stored by a shared cache (a CDN, a proxy) is served to every later caller, with or
    // without Origin. So with any origin allowed, every answer says so, whoever asked; with a list,
    // every answer varies on Origin, so a copy made for one caller is never given to another.
    if (origin === undefined) {
      if (anyOrigin) addHeaders(c, { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': expose });
      await next();
      if (!anyOrigin) c.res.headers.append('Vary', 'Origin');
      return;
    }
    const allowOrigin = allowed(origin);
    c.set('corsAllowed', allowOrigin !== undefined);
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      const open = allowOrigin === undefined && openPreflight(c.req.path);
      const headers: Record<string, string> = {
        'Access-Control-Allow-Methods': open ? OPEN_METHODS : ALLOW_METHODS,
        'Access-Control-Allow-Headers': ALLOW_HEADERS,
        'Access-Control-Max-Age': '86400',
        ...(allowOrigin ? { 'Access-Control-Allow-Origin': allowOrigin } : open ? { 'Access-Control-Allow-Origin': origin } : {}),
        ...(anyOrigin ? {} : { Vary: 'Origin' }),
      };
      return c.body(null, 204, headers);
    }
    if (allowOrigin) addHeaders(c, { 'Access-Control-Allow-Origin': allowOrigin, 'Access-Control-Expose-Headers': expose });
    await next();
    if (anyOrigin) return;
    // A key refused before it verified (401, or the failed-auth 429) on an open path: the browser may
    // read that refusal from any origin, since the key's own origins are unknown until it verifies.
    // Otherwise a page bound to a revoked key sees a network error and cannot tell it from offline.
    // The body says only "Invalid API key" or when to retry; no credentials are ever allowed.
    if (!allowOrigin && (c.res.status === 401 || c.res.status === 429) && !c.get('principal') && openPreflight(c.req.path)) {
      c.res.headers.set('Access-Control-Allow-Origin', origin);
      c.res.headers.set('Access-Control-Expose-Headers', expose);
    }
    c.res.headers.append('Vary', 'Origin');
  };
}
