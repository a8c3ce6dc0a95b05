// Builds the Hono app for a set of route groups over one Deps. A Lambda mounts one group, the
// local server mounts all, tests call app.request() on the same app.
import { Hono, type Context } from 'hono';
import { getPath } from 'hono/utils/url';
import { openAPIRouteHandler } from 'hono-openapi';
import type { Deps } from '../../core/deps.ts';
import type { AppEnv } from './app-env.ts';
import { errorResponse } from './errors.ts';
import { requestLog } from './request-log.ts';
import { cors } from './cors.ts';
import { EXPOSED_HEADERS } from './exposed-headers.ts';
import { applyHeaders, respondJson } from './response-headers.ts';
import type { RouteGroup } from './route-group.ts';
import { OPENAPI_OPTIONS } from './describe.ts';
import { MAX_BODY_BYTES, requestBodyLimit } from './body-limit.ts';

export { MAX_BODY_BYTES };

export type ApiOptions = {
  openapi?: boolean;
  /** How the entry learns the caller's address (the socket, or Lambda's event); failed-auth throttling keys on it. */
  clientAddress?: (c: Context<AppEnv>) => string | undefined;
};

export function createApi(deps: Deps, groups: readonly RouteGroup[], options: ApiOptions = {}) {
  const app = createApp(deps, groups, options);
  if (groups.length < 2) return app;
  // Several groups (the local server, tests): a request goes to the app of the one group whose
  // prefix it is under, as API Gateway sends it to that group's Lambda, and that app is the one the
  // Lambda runs. Why: one router over all 483 routes cannot be Hono's RegExpRouter (a static segment
  // beside a parameter, `/v1/keys/tags` and `/v1/keys/{key_id}`), and the TrieRouter it falls back
  // to collects a route's dozen handlers on every request (about 3 of a cached read's 15 us of our
  // own code, docs/benchmarks.md 2026-12-05); most groups alone take the RegExpRouter, whose handler
  // lists are built once. The whole app keeps the routes (`app.routes`, the OpenAPI document) and
  // answers what no group's prefix covers (/openapi.json, unrouted paths: its 404).
  const byPrefix = groups.map((group) => ({ prefix: group.prefix, fetch: createApp(deps, [group], { ...options, openapi: false }).fetch }));
  const whole = app.fetch;
  app.fetch = (request, env, executionCtx) => {
    const path = getPath(request);
    for (const group of byPrefix) {
      // Under the prefix: equal to it, or it and a slash (`/v1/keysets` is not under `/v1/keys`).
      if (path.startsWith(group.prefix) && (path.length === group.prefix.length || path.charCodeAt(group.prefix.length) === 47)) {
        return group.fetch(request, env, executionCtx);
      }
    }
    return whole(request, env, executionCtx);
  };
  return app;
}

function createApp(deps: Deps, groups: readonly RouteGroup[], options: ApiOptions) {
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
    // Each group declares its body limit (file imports take up to 10 MiB; JSON bodies 1 MiB). A group
    // that sets the limit inside its own router (the portal, whose 413 is a page) is left to it.
    if (group.limitsItsOwnBody) continue;
    const limit = requestBodyLimit(group.maxBodyBytes ?? MAX_BODY_BYTES);
    app.use(group.prefix, limit);
    app.use(`${group.prefix}/*`, limit);
  }
  for (const group of groups) app.route(group.prefix, group.routes);
  if (options.openapi) app.get('/openapi.json', openAPIRouteHandler(app, OPENAPI_OPTIONS));
  app.notFound((c) => {
    // A browser's `/portal/` (typed, or a bookmark): on AWS no route of the portal's function may
    // take it (`ANY /portal/{proxy+}` needs a segment), so the function that answers unrouted paths
    // sends it where the local server's portal does.
    if (c.req.path === '/portal/') return c.redirect(`/portal${new URL(c.req.url).search}`, 308);
    return respondJson(c, { detail: 'Not Found' }, 404);
  });
  app.onError((error, c) => errorResponse(error, c));
  return app;
}

export type Api = ReturnType<typeof createApi>;
