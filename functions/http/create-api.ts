// Builds the Hono app for a set of route groups over one Deps. A Lambda mounts one group, the
// local server mounts all, tests call app.request() on the same app.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { openAPIRouteHandler } from 'hono-openapi';
import type { Deps } from '../../core/deps.ts';
import { AppError } from '../../core/errors.ts';
import type { AppEnv } from './app-env.ts';
import { errorResponse } from './errors.ts';
import { requestLog } from './request-log.ts';
import { autoRebuildAfterWrites } from './auto-rebuild.ts';
import type { RouteGroup } from './route-group.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Response headers a browser script may read (not CORS-safelisted otherwise). */
export const EXPOSED_HEADERS = [
  'ETag',
  'Retry-After',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
];

export function createApi(deps: Deps, groups: readonly RouteGroup[], options: { openapi?: boolean } = {}) {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  app.use('*', requestLog());
  // Web apps read translations from the browser with an X-API-Key header: that needs a preflight.
  // (On AWS, API Gateway answers CORS itself and ignores these headers: stacks/api.ts.)
  app.use(
    '*',
    cors({
      origin: deps.config.CORS_ORIGINS === '*' ? '*' : deps.config.CORS_ORIGINS.split(',').map((o) => o.trim()),
      allowHeaders: ['X-API-Key', 'X-Project-Id', 'Content-Type', 'If-None-Match', 'Authorization', 'X-Request-Id'],
      allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      exposeHeaders: EXPOSED_HEADERS,
      maxAge: 86_400,
    }),
  );
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AppError('payload_too_large', 'Request body exceeds 1 MiB');
      },
    }),
  );
  app.use('/v1/*', autoRebuildAfterWrites());
  for (const group of groups) app.route(group.prefix, group.routes);
  if (options.openapi) {
    app.get(
      '/openapi.json',
      openAPIRouteHandler(app, {
        documentation: {
          openapi: '3.1.0',
          info: { title: 'tms: translation management service', version: '1.0.0' },
          components: {
            securitySchemes: {
              apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
              adminToken: { type: 'http', scheme: 'bearer' },
            },
          },
        },
      }),
    );
  }
  app.notFound((c) => c.json({ detail: 'Not Found' }, 404));
  app.onError((error, c) => errorResponse(error, c));
  return app;
}

export type Api = ReturnType<typeof createApi>;
