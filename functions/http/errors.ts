// The one place where errors become HTTP: every AppError code maps to a status and the spec's
// envelope `{ "detail": ... }`; anything unexpected is logged with the request id and answered as
// an opaque 500.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError, type AppErrorCode } from '../../core/errors.ts';
import { isConnectionError } from '../../core/db/client.ts';
import type { AppEnv } from './app-env.ts';

function statusOf(code: AppErrorCode): ContentfulStatusCode {
  switch (code) {
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'plan_limit':
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
    case 'payload_too_large':
      return 413;
    case 'unsupported_media_type':
      return 415;
    case 'dependency':
      return 500;
  }
}

// Postgres refusing input is still the client's fault: a safety net behind core's own validation.
const PG_INPUT_ERRORS: Record<string, { status: ContentfulStatusCode; detail: string }> = {
  '22P02': { status: 422, detail: 'Invalid input syntax' },
  '22001': { status: 422, detail: 'Value too long' },
  '22021': { status: 422, detail: 'Invalid character in input' },
  '23505': { status: 409, detail: 'Conflict with an existing resource' },
  '54000': { status: 413, detail: 'Input too large' },
};

export function errorResponse(error: unknown, c: Context<AppEnv>): Response {
  if (error instanceof AppError) {
    const body = { detail: error.code === 'validation' && error.issues ? error.issues : error.message };
    return c.json(body, statusOf(error.code), error.headers);
  }
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    return c.json({ detail: error.message || 'Bad request' }, status);
  }
  const pgCode = (error as { code?: unknown } | null)?.code;
  if (typeof pgCode === 'string' && pgCode in PG_INPUT_ERRORS) {
    const { status, detail } = PG_INPUT_ERRORS[pgCode]!;
    return c.json({ detail }, status);
  }
  const log = c.get('deps')?.log;
  const requestId = c.get('requestId');
  if (isConnectionError(error)) {
    log?.error('dependency unreachable', { request_id: requestId, error: String(error) });
    return c.json({ detail: 'A dependency is unavailable; retry once after 1 to 2 seconds' }, 500);
  }
  log?.error('unhandled error', {
    request_id: requestId,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return c.json({ detail: 'Internal server error' }, 500);
}
