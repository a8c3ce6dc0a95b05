// X-API-Key on every /v1 route (section 5). The verifier refuses malformed keys without a database
// read and caches verified keys briefly in process. Metering is separate and declared beside it by
// each route group (daily-quota.ts): `.use('*', apiKeyAuth(), dailyQuota())`.
//
// Delivery keys (delivery_…, docs/decisions.md "Delivery keys") are refused with 403 everywhere
// except in the groups that declare `apiKeyAuth({ delivery: true })`: the cached reads. So a new
// route group is closed to them unless it says otherwise. There, a key bound to browser origins
// refuses a request whose Origin is not one of them, and deliveryLanguages() below refuses the
// languages the key is not bound to. All of it is read from the cached principal: no extra lookup.
import type { Context, MiddlewareHandler } from 'hono';
import { AppError } from '../../core/errors.ts';
import type { Actor } from '../../core/actor.ts';
import { canonicalLanguageCode } from '../../core/languages/language-code.ts';
import type { AppEnv } from './app-env.ts';
import { addHeaders } from './response-headers.ts';
import { EXPOSED_HEADERS } from './exposed-headers.ts';

export const deliveryKeyRefused = () =>
  new AppError('forbidden', 'A delivery key only reads cached translations (GET /v1/cached/...): use the project\'s key_live_ key for this');
const originRefused = () => new AppError('forbidden', 'This delivery key is not allowed from this Origin');
const languageRefused = (language: string) => new AppError('forbidden', `This delivery key is not allowed to read '${language}'`);

const EXPOSE = EXPOSED_HEADERS.join(', ');

export type ApiKeyAuthOptions = {
  /** The group serves delivery keys (read-only cached reads); every other group refuses them (403). */
  delivery?: boolean;
};

export const apiKeyAuth = (options: ApiKeyAuthOptions = {}): MiddlewareHandler<AppEnv> => {
  const allowDelivery = options.delivery === true;
  return async function apiKeyAuth(c, next) {
    // A router mounted inside another that already authenticated: nothing more to verify, but its
    // own rule on delivery keys still holds.
    let principal = c.get('principal');
    if (!principal) {
      principal = await c.get('deps').apiKeys.verify(c.req.header('x-api-key'), { address: c.get('clientAddress') });
      // Ids are UUIDs, which name the same project in capitals.
      const claimed = c.req.header('x-project-id')?.toLowerCase();
      if (claimed !== undefined && claimed !== principal.projectId) {
        throw new AppError('forbidden', 'This API key belongs to a different project');
      }
      c.set('principal', principal);
    }
    if (principal.kind === 'delivery') {
      if (!allowDelivery) throw deliveryKeyRefused();
      if (principal.allowedOrigins !== null) return originBound(c, next, principal.allowedOrigins);
    }
    await next();
  };
};

/**
 * A delivery key bound to origins: a request with an Origin outside the list is refused. One with no
 * Origin is served: servers and mobile apps send none, and outside a browser any Origin can be
 * forged anyway; the binding stops other websites' pages from using the key (a browser always
 * sends Origin on a cross-origin request and a page cannot change it).
 */
async function originBound(c: Context<AppEnv>, next: () => Promise<void>, origins: readonly string[]): Promise<void> {
  const origin = c.req.header('origin');
  if (origin !== undefined) {
    if (!origins.includes(origin)) throw originRefused();
    // The server's CORS_ORIGINS may not list it: the key's own list lets the browser read the answer.
    if (!c.get('corsAllowed')) addHeaders(c, { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSE });
  }
  await next();
  // The answer depends on Origin: a shared cache must not hand one origin's copy to another.
  const vary = c.res.headers.get('vary');
  if (!vary || !/(^|,)\s*origin\s*(,|$)/i.test(vary)) c.res.headers.append('Vary', 'Origin');
}

/**
 * For routes whose path names a `:language`: a delivery key bound to languages reads only those
 * (403 otherwise). Registered by path pattern in the cached group, after apiKeyAuth.
 */
export const deliveryLanguages = (): MiddlewareHandler<AppEnv> =>
  async function deliveryLanguages(c, next) {
    const allowed = c.get('principal').allowedLanguages;
    if (allowed !== null) {
      const raw = c.req.param('language');
      // An invalid code is left to the route's own validation (422).
      const language = raw === undefined ? null : canonicalLanguageCode(raw);
      if (language !== null && !allowed.includes(language)) throw languageRefused(language);
    }
    await next();
  };

/** The project and actor of an API-key request: what every /v1 use-case input starts with. */
export function keyScope(c: Context<AppEnv>): { projectId: string; actor: Actor } {
  const principal = c.get('principal');
  return { projectId: principal.projectId, actor: { type: 'api_key', id: principal.apiKeyId } };
}
