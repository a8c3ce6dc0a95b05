import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../core/errors.ts';
import type { AppEnv } from './app-env.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** `Authorization: Bearer <TMS_ADMIN_TOKEN>` on /admin/v1, compared in constant time. */
export const adminAuth = (): MiddlewareHandler<AppEnv> =>
  async function adminAuth(c, next) {
    const header = c.req.header('authorization') ?? '';
    // The scheme is case-insensitive (RFC 9110 11.1): "bearer" and "BEARER" are Bearer.
    const match = /^Bearer +([^\s]+)$/i.exec(header);
    const expected = c.get('deps').adminToken;
    // No token configured (a Lambda not linked to AdminToken): the admin API stays closed.
    if (!match || !expected || !timingSafeEqual(digest(match[1]!), digest(expected))) {
      throw new AppError('unauthorized', 'Invalid admin token');
    }
    await next();
  };
