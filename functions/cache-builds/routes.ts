import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { apiKeyAuth, keyScope } from '../http/api-key-auth.ts';
import { dailyQuota } from '../http/daily-quota.ts';
import { describe } from '../http/describe.ts';
import { routeGroup } from '../http/route-group.ts';
import { noBody } from '../http/validate.ts';
import { requestRebuild } from '../../core/cache/request-rebuild.ts';
import { cacheStatus } from '../../core/cache/read-cached.ts';

const tag = 'Cache';
const RebuildQueued = v.object({ project_id: v.string(), status: v.literal('queued'), message: v.string() });
// The spec's three fields, then where a requested build stands (core/cache/build-state.ts).
const CacheStatus = v.object({
  project_id: v.string(),
  last_rebuilt_at: v.nullable(v.string()),
  ready: v.boolean(),
  pending: v.pipe(v.boolean(), v.description('A requested rebuild is not built yet: the files served are older than the last request')),
  build_state: v.pipe(
    v.picklist(['idle', 'queued', 'building', 'failed']),
    v.description('idle: nothing pending; queued: waiting for a worker (or auto_rebuild\'s quiet time); building: a worker builds it now; failed: the last attempt failed and is retried automatically'),
  ),
  failed_at: v.pipe(v.nullable(v.string()), v.description('When the last attempt failed, while no build has succeeded since')),
  last_error: v.pipe(v.nullable(v.string()), v.description('What a client may know of that failure (details are in the server log)')),
});

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota())
  .post('/rebuild', describe({ operationId: 'rebuildCache', tag, body: 'none', summary: 'Queue a rebuild of the translation cache (no body)', responses: { 202: RebuildQueued } }), noBody(), async (c) =>
    c.json(await requestRebuild(c.get('deps'), keyScope(c)), 202),
  )
  .get('/status', describe({ operationId: 'readCacheStatus', tag, input: false, summary: 'When the cache was last built, whether it is ready, and whether a build is pending or failing', responses: { 200: CacheStatus } }), async (c) => {
    return c.json(await cacheStatus(c.get('deps'), { projectId: c.get('principal').projectId }), 200, { 'Cache-Control': 'no-store' });
  });

export const cacheBuildsGroup = routeGroup('cacheBuilds', routes);
