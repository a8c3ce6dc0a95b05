// The daily API-call quota (spec sections 7 and 8), declared by each route group right after
// apiKeyAuth(): `.use('*', apiKeyAuth(), dailyQuota())`. Counting is one store round trip, done before the
// handler so that a refused call never runs it. Conditional reads are the exception: a 304 costs the
// caller nothing, so they run first and are counted only when they turn out not to be a 304. Their
// standing is read (without counting) before the handler, so that a 304, the revalidation hot path,
// is built in one go with every header like any other fast answer; a conditional read that turns
// out a 200 then counts (a second round trip) and its headers replace the peeked ones.
// Every counted answer, errors from handlers included, says where the caller stands (docs/rate-limits.md).
import type { Context, MiddlewareHandler } from 'hono';
import { AppError } from '../../core/errors.ts';
import { dailyCallLimit, type CallTally } from '../../core/usage/count-call.ts';
import { rateLimitHeaders } from './rate-limit-headers.ts';
import type { AppEnv } from './app-env.ts';
import { errorResponse } from './errors.ts';
import { addHeaders, dropPendingHeaders } from './response-headers.ts';

export function quotaExceeded(tally: CallTally): AppError<CallTally> {
  return new AppError(
    'rate_limited',
    `Daily API call quota exceeded: ${tally.used} calls today, ${tally.limit} allowed ` +
      `(plus a grace of ${tally.grace}). Retry after the reset at midnight UTC.`,
    { data: tally },
  );
}

/** GET or HEAD that may be answered 304. Other methods never are (RFC 9110, 13.1.2), so they count first. */
function isConditionalRead(c: Context<AppEnv>): boolean {
  const method = c.req.method;
  return (
    (method === 'GET' || method === 'HEAD') &&
    (c.req.header('if-none-match') !== undefined || c.req.header('if-modified-since') !== undefined)
  );
}

function setHeaders(c: Context<AppEnv>, tally: CallTally): void {
  // After next(): c.res is the final answer, the one app.onError made from a handler's throw included.
  // Set on it directly: c.header() now would rebuild the answer as a streamed Response (slow path).
  // Peeked values still pending (an error answer gets them from applyHeaders later) must not win.
  const fresh = rateLimitHeaders(tally);
  dropPendingHeaders(c, fresh);
  const headers = c.res.headers;
  for (const name in fresh) headers.set(name, fresh[name]!);
}

export const dailyQuota = (): MiddlewareHandler<AppEnv> =>
  async function dailyQuota(c, next) {
    // A router mounted inside another that already counted this call must not count it twice.
    if (c.get('counted')) return next();
    c.set('counted', true);
    const { calls } = c.get('deps');
    const account = { accountId: c.get('principal').accountId, limit: dailyCallLimit(c.get('principal')) };

    if (!isConditionalRead(c)) {
      const tally = await calls.count(account);
      if (!tally.allowed) throw quotaExceeded(tally);
      addHeaders(c, rateLimitHeaders(tally));
      return next();
    }

    const standing = await calls.peek(account);
    // A 304 is free, but an account already beyond the grace zone is answered 429 whatever it asks
    // (spec section 8), a conditional read included: the peek that builds the 304's headers tells.
    // A limit of 0 is the operator's off switch: it refuses every call, on a fresh day too, when
    // the peek finds nothing used yet and a 304 was served behind it.
    if (!standing.allowed || account.limit === 0) throw quotaExceeded(await calls.count(account));
    addHeaders(c, rateLimitHeaders(standing));
    await next();
    if (c.res.status === 304) return;
    const tally = await calls.count(account);
    if (!tally.allowed) {
      replaceWithRefusal(c, tally);
      return;
    }
    setHeaders(c, tally);
  };

// What describes the handler's answer as a representation of the resource: a 429 must not carry it,
// or it would look like a cacheable copy of the resource (ETag, Cache-Control, Last-Modified).
const REPRESENTATION_HEADERS = new Set([
  'etag',
  'last-modified',
  'cache-control',
  'vary',
  'content-type',
  'content-encoding',
  'content-length',
  'content-language',
]);
const isStanding = (name: string) => name.startsWith('x-ratelimit-') || name.startsWith('ratelimit') || name === 'retry-after';

/**
 * Swaps a handler's answer for the 429, through the one error mapping, which sets this count's
 * standing, Retry-After and no-store. The handler's answer already took the request's own headers
 * (request id, CORS) from the pending ones when it was built: those are kept, its representation's dropped.
 */
function replaceWithRefusal(c: Context<AppEnv>, tally: CallTally): void {
  const kept: Record<string, string> = {};
  for (const [name, value] of c.res.headers) if (!REPRESENTATION_HEADERS.has(name) && !isStanding(name)) kept[name] = value;
  dropPendingHeaders(c, rateLimitHeaders(tally));
  addHeaders(c, kept);
  // Unset first: assigning over an existing c.res would merge the old answer's headers back in.
  c.res = undefined;
  c.res = errorResponse(quotaExceeded(tally), c);
}
