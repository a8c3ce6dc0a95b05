// The request body limit of a route group: a 413 in the error envelope, before the body is read.
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError } from '../../core/errors.ts';

/** JSON bodies; a group that takes files declares its own limit (functions/http/route-group.ts). */
export const MAX_BODY_BYTES = 1024 * 1024;
const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);
const DIGITS = /^\d{1,15}$/;

export function requestBodyLimit(maxSize: number): MiddlewareHandler {
  const tooLarge = () => new AppError('too_large', `Request body exceeds ${Number((maxSize / (1024 * 1024)).toFixed(1))} MiB`);
  const limitBody = bodyLimit({
    maxSize,
    onError: () => {
      throw tooLarge();
    },
  });
  // Only where a body can come. A declared Content-Length is judged as declared (Node's parser
  // never hands on more bytes than it says), without touching c.req.raw.body: over Node that
  // getter makes the adapter build a full Fetch Request (headers, AbortSignal, a web stream over
  // the socket), about a fifth of a PUT's CPU, where reading the body directly needs none of it.
  // A body without one (chunked) is counted as it streams by hono's bodyLimit.
  return function requestBodyLimit(c, next) {
    if (BODYLESS.has(c.req.method)) return next();
    const declared = c.req.header('content-length');
    if (declared !== undefined && DIGITS.test(declared) && c.req.header('transfer-encoding') === undefined) {
      if (Number(declared) > maxSize) throw tooLarge();
      return next();
    }
    return limitBody(c, next);
  };
}
