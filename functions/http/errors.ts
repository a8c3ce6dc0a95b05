// The one place where errors become HTTP: every AppError code maps to a status and the spec's
// envelope `{ "detail": ... }` (and, from the error's data, the headers that status needs);
// anything unexpected is logged with the request id and answered as an opaque 500. Database errors
// arrive here already as domain errors (core/db/errors.ts).
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError, type AppErrorCode, type AuthChallenge } from '../../core/errors.ts';
import { toDomainError } from '../../core/db/errors.ts';
import type { CallTally } from '../../core/usage/count-call.ts';
import type { AuthThrottleData } from '../../core/auth/failed-auth-limiter.ts';
import type { AppEnv } from './app-env.ts';
import { rateLimitHeaders } from './rate-limit-headers.ts';
import { respondJson } from './response-headers.ts';

/** The HTTP status of an error code (exported for the portal, which answers errors as pages). */
export function statusOf(code: AppErrorCode): ContentfulStatusCode {
  switch (code) {
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'plan_limit':
    case 'quota_exceeded':
      return 402;
    case 'validation':
      return 422;
    case 'unauthorized':
      return 401;
    case 'forbidden':
      return 403;
    case 'rate_limited':
      return 429;
    case 'not_ready':
      return 503;
    case 'too_large':
      return 413;
    case 'dependency':
    case 'writes_refused':
      return 500;
    case 'upstream':
      return 502;
    case 'precondition_failed':
      return 412;
  }
}

function headersOf(error: AppError): Record<string, string> {
  if (error.code === 'unauthorized') {
    const challenge = (error.data as AuthChallenge | undefined)?.challenge;
    return challenge ? { 'WWW-Authenticate': challenge } : {};
  }
  if (error.code !== 'rate_limited' || !error.data) return {};
  // Failed authentications from one address: no quota to report, only when to come back.
  if ('retryAfterSeconds' in (error.data as object)) {
    return { 'Retry-After': String((error.data as AuthThrottleData).retryAfterSeconds), 'Cache-Control': 'no-store' };
  }
  const tally = error.data as CallTally;
  // no-store: the refusal is about this moment, and a cache must not replay it after the reset.
  const headers = rateLimitHeaders(tally);
  headers['Retry-After'] = String(tally.resetSeconds);
  headers['Cache-Control'] = 'no-store';
  return headers;
}

/**
 * The spec's upgrade_url is a URL: a relative UPGRADE_URL (the default, `/docs#/Admin`) is resolved
 * against the address the request came to, so a client gets a link it can open.
 */
function withAbsoluteUpgradeUrl(data: unknown, c: Context<AppEnv>): unknown {
  const url = (data as { upgrade_url?: unknown } | null)?.upgrade_url;
  if (typeof url !== 'string' || URL.canParse(url)) return data;
  return { ...(data as object), upgrade_url: new URL(url, c.req.url).href };
}

function detailOf(error: AppError, c: Context<AppEnv>): unknown {
  if (error.code === 'validation' && error.issues) return error.issues;
  if (error.code === 'quota_exceeded' && error.data) return withAbsoluteUpgradeUrl(error.data, c);
  if (error.code === 'precondition_failed' && error.data) return error.data;
  return error.message;
}

// Error answers are built like the hot paths' answers (respondJson): one Response with plain-object
// headers, the pending ones (request id, CORS, quota standing) merged in, the error's own winning.
// c.json() with more than one header, and the pending headers then set one by one on its Fetch
// Headers, cost a 404 or a 401 about 40% more of the service's CPU than a 200 of the same route.
// Consequence: a header set with c.header() before a throw is not carried onto the error answer;
// routes pass their headers with their answer instead, and middlewares use addHeaders().
export function errorResponse(thrown: unknown, c: Context<AppEnv>): Response {
  // Core already turns database errors into domain errors at its boundary; this catches one that a
  // future path might let through, so that bad input can never become a 500.
  const error = toDomainError(thrown);
  const log = c.get('deps')?.log;
  const requestId = c.get('requestId');
  if (error instanceof AppError) {
    if (error.code === 'dependency') {
      log?.error('dependency unreachable', { request_id: requestId, error: String(error.cause ?? error.message) });
      return respondJson(c, { detail: 'A dependency is unavailable; retry once after 1 to 2 seconds' }, 500);
    }
    return respondJson(c, { detail: detailOf(error, c) }, statusOf(error.code), headersOf(error));
  }
  if (error instanceof HTTPException) {
    return respondJson(c, { detail: error.message || 'Bad request' }, error.status);
  }
  log?.error('unhandled error', {
    request_id: requestId,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return respondJson(c, { detail: 'Internal server error' }, 500);
}
