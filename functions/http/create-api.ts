// Builds the Hono app for a set of route groups over one Deps. A Lambda mounts one group, the
// local server mounts all, tests call app.request() on the same app.
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { openAPIRouteHandler } from 'hono-openapi';
import type { Deps } from '../../core/deps.ts';
import { AppError } from '../../core/errors.ts';
import type { AppEnv } from './app-env.ts';
import { errorResponse } from './errors.ts';
import { requestLog } from './request-log.ts';
import { cors } from './cors.ts';
import { EXPOSED_HEADERS } from './exposed-headers.ts';
import { applyHeaders, respondJson } from './response-headers.ts';
import type { RouteGroup } from './route-group.ts';
import { OPENAPI_OPTIONS } from './describe.ts';

export const MAX_BODY_BYTES = 1024 * 1024;
const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);
const DIGITS = /^\d{1,15}$/;


export type ApiOptions = {
  openapi?: boolean;
  /** How the entry learns the caller's address (the socket, or Lambda's event); failed-auth throttling keys on it. */
  clientAddress?: (c: Context<AppEnv>) => string | undefined;
};

export function createApi(deps: Deps, groups: readonly RouteGroup[], options: ApiOptions = {}) {
  const app = new Hono<AppEnv>();
  const clientAddress = options.clientAddress;
  app.use('*', function withDeps(c, next) {
    c.set('deps', deps);
    if (clientAddress) c.set('clientAddress', clientAddress(c));
    return next();
  });
  app.use('*', applyHeaders());
  app.use('*', requestLog());
  // Web apps read translations from the browser with an X-API-Key header: that needs a preflight.
  // (On AWS, API Gateway answers CORS itself and ignores these headers: stacks/api.ts.)
  app.use(
    '*',
    cors({
      origins: deps.config.CORS_ORIGINS === '*' ? '*' : deps.config.CORS_ORIGINS.split(',').map((o) => o.trim()),
      exposeHeaders: EXPOSED_HEADERS,
      openPreflightPrefixes: ['/v1/cached/'],
    }),
  );

  for (const group of groups) {
    // Each group declares its body limit (file imports take up to 10 MiB; JSON bodies 1 MiB).
    const maxSize = group.maxBodyBytes ?? MAX_BODY_BYTES;
    const tooLarge = () => new AppError('too_large', `Request body exceeds ${maxSize / (1024 * 1024)} MiB`);
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
    const limit: MiddlewareHandler<AppEnv> = (c, next) => {
      if (BODYLESS.has(c.req.method)) return next();
      const declared = c.req.header('content-length');
      if (declared !== undefined && DIGITS.test(declared) && c.req.header('transfer-encoding') === undefined) {
        if (Number(declared) > maxSize) throw tooLarge();
        return next();
      }
      return limitBody(c, next);
    };
    app.use(group.prefix, limit);
    app.use(`${group.prefix}/*`, limit);
  }
  for (const group of groups) app.route(group.prefix, group.routes);
  if (options.openapi) app.get('/openapi.json', openAPIRouteHandler(app, OPENAPI_OPTIONS));
  app.notFound((c) => respondJson(c, { detail: 'Not Found' }, 404));
  app.onError((error, c) => errorResponse(error, c));
  return app;
}

export type Api = ReturnType<typeof createApi>;
