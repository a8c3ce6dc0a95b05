// X-API-Key on every /v1 route (section 5). The verifier refuses malformed keys without a database
// read and caches verified keys briefly in process. Metering is separate and declared beside it by
// each route group (daily-quota.ts): `.use('*', apiKeyAuth(), dailyQuota())`.
import type { Context, MiddlewareHandler } from 'hono';
import { AppError } from '../../core/errors.ts';
import type { Actor } from '../../core/actor.ts';
import type { AppEnv } from './app-env.ts';

export const apiKeyAuth = (): MiddlewareHandler<AppEnv> =>
  async function apiKeyAuth(c, next) {
    // A router mounted inside another that already authenticated: nothing more to verify.
    if (c.get('principal')) return next();
    const principal = await c.get('deps').apiKeys.verify(c.req.header('x-api-key'), { address: c.get('clientAddress') });
    const claimed = c.req.header('x-project-id');
    if (claimed !== undefined && claimed !== principal.projectId) {
      throw new AppError('forbidden', 'This API key belongs to a different project');
    }
    c.set('principal', principal);
    await next();
  };

/** The project and actor of an API-key request: what every /v1 use-case input starts with. */
export function keyScope(c: Context<AppEnv>): { projectId: string; actor: Actor } {
  const principal = c.get('principal');
  return { projectId: principal.projectId, actor: { type: 'api_key', id: principal.apiKeyId } };
}
