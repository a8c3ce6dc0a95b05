import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../core/errors.ts';
import type { AppEnv } from './app-env.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** `Authorization: Bearer <TMS_ADMIN_TOKEN>` on /admin/v1, compared in constant time. */
export const adminAuth = (): MiddlewareHandler<AppEnv> =>
  async function adminAuth(c, next) {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer ([^\s]+)$/.exec(header);
    if (!match || !timingSafeEqual(digest(match[1]!), digest(c.var.deps.adminToken))) {
      throw new AppError('unauthorized', 'Invalid admin token');
    }
    await next();
  };
