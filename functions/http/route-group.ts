import type { Hono } from 'hono';
import type { AppEnv } from './app-env.ts';

/** A slice of the API mounted at one path prefix: one Lambda each on AWS, all together locally. */
export type RouteGroup = { name: string; prefix: string; routes: Hono<AppEnv> };
