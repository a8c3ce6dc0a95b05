// One JSON line per request, and an X-Request-Id on every response (taken from the caller when it
// is a sane token, so traces can be joined across services). Never logs keys or tokens.
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.ts';
import { addHeaders } from './response-headers.ts';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
// An invitation link carries its one-time token in the path (/portal/invite/<token>): whoever reads
// the log could join the account with it. Such a path is logged with the token left out.
const INVITE_TOKEN = /^(\/portal\/invite\/)[^/]+/;
const loggedPath = (path: string) => path.replace(INVITE_TOKEN, '$1[token]');

export const requestLog = (): MiddlewareHandler<AppEnv> =>
  async function requestLog(c, next) {
    const started = performance.now();
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && SANE_ID.test(incoming) ? incoming : randomUUID();
    c.set('requestId', requestId);
    addHeaders(c, { 'X-Request-Id': requestId });
    try {
      await next();
    } finally {
      if (c.get('deps').config.LOG_REQUESTS) {
        c.get('deps').log.info('request', {
          method: c.req.method,
          route: c.req.routePath,
          path: loggedPath(c.req.path),
          status: c.res.status,
          duration_ms: Math.round((performance.now() - started) * 100) / 100,
          request_id: requestId,
          project_id: c.get('principal')?.projectId,
        });
      }
    }
  };
