// X-API-Key on every /v1 route (section 5). The verifier refuses malformed keys without a
// database read and caches verified keys briefly in process.
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../core/errors.ts';
import type { AppEnv } from './app-env.ts';

export const apiKeyAuth = (): MiddlewareHandler<AppEnv> =>
  async function apiKeyAuth(c, next) {
    const principal = await c.var.deps.apiKeys.verify(c.req.header('x-api-key'));
    const claimed = c.req.header('x-project-id');
    if (claimed !== undefined && claimed !== principal.projectId) {
      throw new AppError('forbidden', 'This API key belongs to a different project');
    }
    c.set('principal', principal);
    await next();
  };
