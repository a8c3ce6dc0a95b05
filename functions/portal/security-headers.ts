// Every portal answer: no inline script or style (CSP), never framed, no MIME sniffing, no Referer
// to other sites (invitation links carry their token in the path), and no caching of pages that
// show private data. `same-origin`, not `no-referrer`: under no-referrer a browser sends
// `Origin: null` with every form POST (Fetch, "serializing a request origin"), and the portal's own
// address, which invitation links are made from, is known only from that header where a CDN in
// front replaces Host (CloudFront to API Gateway).
// Answers the browser got over HTTPS also pin HTTPS for the host (HSTS), so that a later
// `http://` link or typed address never sends the session cookie's host a plain request.
import type { MiddlewareHandler } from 'hono';
import type { PortalEnv } from './portal-env.ts';
import { reachedOverHttps } from './session.ts';

/**
 * One year, the usual figure. No includeSubDomains: the host's siblings (a self-hoster's other
 * services) are not ours to pin. Never sent over plain HTTP, where browsers ignore it anyway and a
 * local `npm start` must keep working on http://localhost.
 */
const HSTS = 'max-age=31536000';

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
    h.set('Referrer-Policy', 'same-origin');
    h.set('Cross-Origin-Opener-Policy', 'same-origin');
    if (!h.has('Cache-Control')) h.set('Cache-Control', 'no-store');
    if (reachedOverHttps(c)) h.set('Strict-Transport-Security', HSTS);
  };
