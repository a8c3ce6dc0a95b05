import { Hono } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { apiKeyAuth } from '../http/api-key-auth.ts';
import { dailyQuota } from '../http/daily-quota.ts';
import { describe } from '../http/describe.ts';
import { routeGroup } from '../http/route-group.ts';
import { Manifest } from '../../core/manifest/schemas.ts';
import { readLiveManifest } from '../../core/manifest/read-manifest.ts';
import { liveResponse } from '../http/live-response.ts';

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota())
  .get(
    '/',
    describe({
      operationId: 'readManifest',
      tag: 'Manifest',
      input: false,
      summary: 'Languages with at least one live value, ordered by code, with their approved counts',
      headers: ['IfNoneMatch'],
      responses: { 200: { schema: Manifest, headers: ['ETag', 'Cache-Control'] }, 304: { headers: ['ETag', 'Cache-Control'] } },
    }),
    async (c) => liveResponse(c, await readLiveManifest(c.get('deps'), { projectId: c.get('principal').projectId })),
  );

export const manifestGroup = routeGroup('manifest', routes);
