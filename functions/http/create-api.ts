// Builds the Hono app for a set of route groups over one Deps. A Lambda mounts one group, the
// local server mounts all, tests call app.request() on the same app.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { openAPIRouteHandler } from 'hono-openapi';
import type { Deps } from '../../core/deps.ts';
import { AppError } from '../../core/errors.ts';
import type { AppEnv } from './app-env.ts';
import { errorResponse } from './errors.ts';
import { requestLog } from './request-log.ts';
import { autoRebuildAfterWrites } from './auto-rebuild.ts';
import type { RouteGroup } from './route-group.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

export function createApi(deps: Deps, groups: readonly RouteGroup[], options: { openapi?: boolean } = {}) {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  app.use('*', requestLog());
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
