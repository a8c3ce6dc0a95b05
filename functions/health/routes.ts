import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { describe } from '../http/describe.ts';
import { routeGroup } from '../http/route-group.ts';
import { checkHealth } from '../../core/health/check-health.ts';

const Health = v.object({
  status: v.picklist(['ok', 'degraded']),
  db: v.picklist(['ok', 'error']),
  redis: v.picklist(['ok', 'error']),
});

const routes = new Hono<AppEnv>().get(
  '/',
  describe({
    operationId: 'checkHealth',
    tag: 'Health',
    summary: 'Service and dependency health',
    auth: 'none',
    input: false,
    responses: { 200: Health, 503: { description: 'Degraded: a dependency failed its check', schema: Health } },
  }),
  async (c) => {
    const report = await checkHealth(c.get('deps'));
    return c.json(report, report.status === 'ok' ? 200 : 503, { 'Cache-Control': 'no-store' });
  },
);

export const healthGroup = routeGroup('health', routes);
