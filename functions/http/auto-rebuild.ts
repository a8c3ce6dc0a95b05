// After a successful write to a project with auto_rebuild on, queue a (debounced) cache rebuild.
// One place for every write route, present and future: any non-GET /v1 call that succeeded, except
// the cache routes themselves.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const autoRebuildAfterWrites = (): MiddlewareHandler<AppEnv> =>
  async function autoRebuildAfterWrites(c, next) {
    await next();
    const principal = c.get('principal');
    if (!principal?.autoRebuild || READS.has(c.req.method) || c.res.status >= 300 || c.req.path.startsWith('/v1/cache/')) return;
    await c.get('deps').autoRebuild.afterWrite(principal.projectId);
  };
