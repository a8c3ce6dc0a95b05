// GET /v1/usage: the account's calls today and translation units this cycle.
import { Hono } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { apiKeyAuth } from '../http/api-key-auth.ts';
import { dailyQuota } from '../http/daily-quota.ts';
import { describe } from '../http/describe.ts';
import { routeGroup } from '../http/route-group.ts';
import { readUsage, Usage } from '../../core/usage/read-usage.ts';

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota())
  .get(
    '/',
    describe({
      operationId: 'readUsage',
      tag: 'Usage',
      input: false,
      summary: "The account's API calls today and translation units this billing cycle",
      responses: { 200: Usage },
    }),
    async (c) => {
      return c.json(await readUsage(c.get('deps'), { projectId: c.get('principal').projectId }), 200, { 'Cache-Control': 'no-store' });
    },
  );

export const usageGroup = routeGroup('usage', routes);
