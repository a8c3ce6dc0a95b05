// X-API-Key on every /v1 route (section 5), then the daily call quota (section 8) for the account it
// identifies: every route group that authenticates is metered, with nothing to remember per route.
// The verifier refuses malformed keys without a database read and caches verified keys briefly in
// process. 401 and 403 answers are not counted: there is no account (or not the claimed one) to count them against.
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../core/errors.ts';
import type { AppEnv } from './app-env.ts';
import { dailyQuota } from './daily-quota.ts';

export const apiKeyAuth = (): MiddlewareHandler<AppEnv> => {
  const quota = dailyQuota();
  return async function apiKeyAuth(c, next) {
    // A router mounted inside another that already authenticated: verifying and counting again
    // would charge the caller twice for one call.
    if (c.get('principal')) return next();
    const principal = await c.get('deps').apiKeys.verify(c.req.header('x-api-key'));
    const claimed = c.req.header('x-project-id');
    if (claimed !== undefined && claimed !== principal.projectId) {
      throw new AppError('forbidden', 'This API key belongs to a different project');
    }
    c.set('principal', principal);
    await quota(c, next);
  };
};
