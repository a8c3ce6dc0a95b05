// Sessions and CSRF for the portal. The session cookie is HttpOnly, SameSite=Lax, and over HTTPS
// Secure with the __Host- prefix (no Domain, Path=/: a sibling subdomain cannot plant one).
// CSRF: every POST must carry the page's token (form field `_csrf` or header X-CSRF-Token), the
// session's own token once signed in, or before that a random token kept in a cookie (double
// submit); a request a browser labels cross-site (Sec-Fetch-Site) is refused outright.
import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie, deleteCookie } from 'hono/cookie';
import { AppError } from '../../core/errors.ts';
import { findSession, randomToken, SESSION_DAYS } from '../../core/users/sessions.ts';
import type { PortalEnv } from './portal-env.ts';

const cookieName = (secure: boolean, name: string) => (secure ? `__Host-${name}` : name);
const SESSION = 'tms_session';
const PRE_SESSION_CSRF = 'tms_csrf';

/** The forms posted before sign-in (their token is the pre-session cookie's): a failed check there is the form's. */
const PRE_SESSION_FORM = /\/(?:sign-in|setup|invite\/[^/]*)$/;
export const SESSION_ENDED = 'Your session has ended (signed out, here or on another device, or expired), so nothing was done: sign in again.';

const baseCookie = (secure: boolean) => ({ path: '/', httpOnly: true, sameSite: 'Lax' as const, secure });

export function setSessionCookie(c: Context<PortalEnv>, token: string): void {
  const secure = c.get('secure');
  setCookie(c, cookieName(secure, SESSION), token, { ...baseCookie(secure), maxAge: SESSION_DAYS * 86_400 });
}

export function clearSessionCookie(c: Context<PortalEnv>): void {
  const secure = c.get('secure');
  // The name already carries the __Host- prefix over HTTPS (no `prefix` option: Hono would add a second).
  deleteCookie(c, cookieName(secure, SESSION), { path: '/', secure });
}

export const sessionToken = (c: Context<PortalEnv>) => getCookie(c, cookieName(c.get('secure'), SESSION));

// Compared as bytes: a token of the right length in characters but not in bytes (non-ASCII) must be
// a mismatch, not a RangeError from timingSafeEqual.
const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Behind a reverse proxy that ends TLS (nginx, a load balancer) the server itself speaks plain HTTP,
 * but the browser used HTTPS: the proxy says so in X-Forwarded-Proto, and the cookies must then be
 * Secure, or a session cookie would also go out over any plain-HTTP request to the host. Believed
 * without TRUST_PROXY_HOPS: it can only make the cookies stricter, and a browser never sends it itself.
 */
const forwardedHttps = (header: string | undefined) => header !== undefined && header.split(',').some((p) => p.trim().toLowerCase() === 'https');

/** The browser reached us over HTTPS: directly, or through a proxy that ended TLS. */
export const reachedOverHttps = (c: Context<PortalEnv>) => new URL(c.req.url).protocol === 'https:' || forwardedHttps(c.req.header('x-forwarded-proto'));

/** Finds the session, fixes the page's CSRF token, and checks it on every POST. */
export const portalSession = (): MiddlewareHandler<PortalEnv> =>
  async function portalSession(c, next) {
    const secure = reachedOverHttps(c);
    c.set('secure', secure);
    const token = sessionToken(c);
    const session = token ? await findSession(c.get('deps'), token) : null;
    c.set('session', session ?? undefined);
    let csrf = session?.csrf;
    if (!csrf) {
      csrf = getCookie(c, cookieName(secure, PRE_SESSION_CSRF));
      if (!csrf || !/^[A-Za-z0-9_-]{43}$/.test(csrf)) {
        csrf = randomToken();
        setCookie(c, cookieName(secure, PRE_SESSION_CSRF), csrf, baseCookie(secure));
      }
    }
    c.set('csrf', csrf);
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      if (c.req.header('sec-fetch-site') === 'cross-site') throw new AppError('forbidden', 'Cross-site requests are refused');
      let sent = c.req.header('x-csrf-token');
      if (sent === undefined) {
        const type = c.req.header('content-type') ?? '';
        if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')) {
          const field = (await c.req.parseBody())['_csrf'];
          if (typeof field === 'string') sent = field;
        }
      }
      if (!sent || !same(sent, csrf)) {
        // No live session behind a signed-in form (signed out everywhere, in another tab, or
        // expired): its token was the ended session's, so the check fails, but what the user needs
        // to hear is that the session ended. Nothing is done either way (these routes need a user).
        if (!session && !PRE_SESSION_FORM.test(c.req.path)) throw new AppError('unauthorized', SESSION_ENDED);
        throw new AppError('forbidden', 'The form has expired (CSRF check failed): reload the page and try again');
      }
    }
    await next();
  };

/** The signed-in user, or a 401 the error page turns into "sign in". */
export function requireUser(c: Context<PortalEnv>) {
  const session = c.get('session');
  if (!session) throw new AppError('unauthorized', 'Sign in to continue');
  return session.user;
}
