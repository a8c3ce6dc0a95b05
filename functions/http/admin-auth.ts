import type { MiddlewareHandler } from 'hono';
import { checkAdminToken } from '../../core/auth/admin-token-check.ts';
import type { AppEnv } from './app-env.ts';

/**
 * `Authorization: Bearer <TMS_ADMIN_TOKEN>` on /admin/v1, compared in constant time. Wrong tokens
 * are counted per client address as failed API keys are: past AUTH_FAILURES_PER_MINUTE, 429 with
 * Retry-After (core/auth/admin-token-check.ts).
 */
export const adminAuth = (): MiddlewareHandler<AppEnv> =>
  async function adminAuth(c, next) {
    const header = c.req.header('authorization') ?? '';
    // The scheme is case-insensitive (RFC 9110 11.1): "bearer" and "BEARER" are Bearer.
    const match = /^Bearer +([^\s]+)$/i.exec(header);
    checkAdminToken(c.get('deps'), match?.[1], c.get('clientAddress'));
    await next();
  };
