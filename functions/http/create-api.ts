// Builds the Hono app for a set of route groups over one Deps. A Lambda mounts one group, the
// local server mounts all, tests call app.request() on the same app.
import { Hono, type Context } from 'hono';
import { getPath } from 'hono/utils/url';
import type { Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
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
  // One group alone that one router can take whole: that app is the group's app already.
  if (groups.length < 2 && (groups.length === 0 || staticBesideParameter(groups[0]!).size === 0)) return app;
  // Several groups (the local server, tests): a request goes to the app of the one group whose
  // prefix it is under, as API Gateway sends it to that group's Lambda, and that app is the one the
  // Lambda runs. Why: one router over all 483 routes cannot be Hono's RegExpRouter (a static segment
  // beside a parameter, `/v1/keys/tags` and `/v1/keys/{key_id}`), and the TrieRouter it falls back
  // to collects a route's dozen handlers on every request (about 3 of a cached read's 15 us of our
  // own code, docs/benchmarks.md 2026-12-05); most groups alone take the RegExpRouter, whose handler
  // lists are built once (a group that cannot is split again: groupFetch). The whole app keeps the
  // routes (`app.routes`, the OpenAPI document) and answers what no group's prefix covers
  // (/openapi.json, unrouted paths: its 404).
  const byPrefix = groups.map((group) => ({ prefix: group.prefix, fetch: groupFetch(deps, group, { ...options, openapi: false }).fetch }));
  const whole = app.fetch;
  app.fetch = (request, env, executionCtx) => {
    const path = pathOf(request);
    for (const group of byPrefix) {
      if (isUnder(path, group.prefix)) return group.fetch(request, env, executionCtx);
    }
    return whole(request, env, executionCtx);
  };
  return app;
}

/**
 * Hono's getPath, remembered for the last request it read. The dispatchers above read a request's
 * path to choose an app, and that app's Hono reads it again, from the URL character by character
 * (about 6% of a cached read's CPU in-process when done twice; docs/benchmarks.md, 2026-12-06
 * 17:03). The app is called synchronously right after, so its read finds the request still
 * remembered. Keyed by the Request object: its URL cannot change, and any other request is read
 * afresh.
 */
let lastRequest: Request | undefined;
let lastPath = '';
export function pathOf(request: Request): string {
  if (request !== lastRequest) {
    lastPath = getPath(request);
    lastRequest = request;
  }
  return lastPath;
}

/** Under the prefix: equal to it, or it and a slash (`/v1/keysets` is not under `/v1/keys`). */
const isUnder = (path: string, prefix: string) => path.startsWith(prefix) && (path.length === prefix.length || path.charCodeAt(prefix.length) === 47);

/** The segment of `path` right after `prefix` (a path under it): `tags` in `/v1/keys/tags/x`. */
function segmentAfter(path: string, prefix: string): string {
  const end = path.indexOf('/', prefix.length + 1);
  return path.slice(prefix.length + 1, end === -1 ? undefined : end);
}

/**
 * The static first segments of a group's routes that a parameter in the same place also matches,
 * when they keep the group off the RegExpRouter: `tags` and `bulk-delete` beside `/{key_id}` in
 * the keys group. Empty when the RegExpRouter takes the group's routes as they are.
 */
function staticBesideParameter(group: RouteGroup): Set<string> {
  const trial = new RegExpRouter<null>();
  try {
    for (const route of group.routes.routes) trial.add(route.method, route.path, null);
    trial.match('GET', '/');
    return new Set();
  } catch {
    const firsts = group.routes.routes.map((route) => route.path.split('/')[1] ?? '');
    if (!firsts.some((first) => first.startsWith(':'))) return new Set();
    return new Set(firsts.filter((first) => first !== '' && !first.startsWith(':') && !first.includes('*')));
  }
}

/**
 * A group's own app, as its Lambda runs it. A group whose static first segments sit beside a
 * parameter (the keys group: `/v1/keys/tags` and `/v1/keys/{key_id}`) is two apps of the same
 * middlewares and handlers: a request whose segment after the prefix is one of those names goes to
 * the app of all the group's routes (on the TrieRouter, as before), any other to an app whose router
 * leaves out the routes under those names, which no such request can match, and so can be the
 * RegExpRouter. Both answer every request exactly as the whole group would: only where the match is
 * made differs. Why: a PUT of a value and a new key are the keys group's, and the TrieRouter's match
 * was about 6% of a PUT's CPU in-process (2.3 us and 4 KB a request against 0.1 us and none;
 * docs/benchmarks.md, 2026-12-05 21:29).
 */
export function groupFetch(deps: Deps, group: RouteGroup, options: ApiOptions): { fetch: Hono<AppEnv>['fetch']; apps: Hono<AppEnv>[] } {
  const all = createApp(deps, [group], options);
  const names = staticBesideParameter(group);
  if (names.size === 0) return { fetch: all.fetch, apps: [all] };
  const rest = createApp(deps, [group], options, routesWhere((path) => !isUnder(path, group.prefix) || !names.has(segmentAfter(path, group.prefix))));
  return {
    fetch: (request, env, executionCtx) => {
      const path = pathOf(request);
      const target = isUnder(path, group.prefix) && names.has(segmentAfter(path, group.prefix)) ? all : rest;
      return target.fetch(request, env, executionCtx);
    },
    apps: [all, rest],
  };
}

/** Hono's own router (RegExpRouter, else TrieRouter) over only the routes whose path `keep` takes. */
function routesWhere<T>(keep: (path: string) => boolean): Router<T> {
  const inner = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] });
  return {
    get name() {
      return inner.name;
    },
    add: (method, path, handler) => {
      if (keep(path)) inner.add(method, path, handler);
    },
    match: (method, path) => inner.match(method, path),
  };
}

type AppRouter = NonNullable<NonNullable<ConstructorParameters<typeof Hono<AppEnv>>[0]>['router']>;

function createApp(deps: Deps, groups: readonly RouteGroup[], options: ApiOptions, router?: AppRouter) {
  const app = new Hono<AppEnv>(router ? { router, getPath: pathOf } : { getPath: pathOf });
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
