import type { Hono } from 'hono';
import type { AppEnv } from './app-env.ts';
import { catalogueEntry, type HttpFunctionName } from '../catalogue.ts';

/** A slice of the API mounted at one path prefix: one Lambda each on AWS, all together locally. */
export type RouteGroup = {
  /** The catalogue name (functions/catalogue.ts) for the groups the service mounts. */
  name: string;
  prefix: string;
  routes: Hono<AppEnv>;
  /** The largest request body the group's routes take; 1 MiB (JSON bodies) unless a group says otherwise. */
  maxBodyBytes?: number;
  /** The group's router applies its limit itself (requestBodyLimit), so that its own error handler answers the 413. */
  limitsItsOwnBody?: boolean;
};

/** A route group at the prefix functions/catalogue.ts gives it: the prefix is declared once, there. */
export function routeGroup(name: HttpFunctionName, routes: Hono<AppEnv>, options: Pick<RouteGroup, 'maxBodyBytes' | 'limitsItsOwnBody'> = {}): RouteGroup {
  return { name, prefix: catalogueEntry(name).prefix!, routes, ...options };
}
