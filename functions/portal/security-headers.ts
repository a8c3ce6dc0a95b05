// Every portal answer: no inline script or style (CSP), never framed, no MIME sniffing, no Referer
// (invitation links carry their token in the path), and no caching of pages that show private data.
import type { MiddlewareHandler } from 'hono';
import type { PortalEnv } from './portal-env.ts';

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const portalHeaders = (): MiddlewareHandler<PortalEnv> =>
  async function portalHeaders(c, next) {
    await next();
    const h = c.res.headers;
    h.set('Content-Security-Policy', CSP);
    h.set('X-Frame-Options', 'DENY');
    h.set('X-Content-Type-Options', 'nosniff');
    h.set('Referrer-Policy', 'no-referrer');
    h.set('Cross-Origin-Opener-Policy', 'same-origin');
    if (!h.has('Cache-Control')) h.set('Cache-Control', 'no-store');
  };
