// Every route group, in mount order. The local server mounts them all; each Lambda mounts one.
import { adminGroup } from './admin/routes.ts';
import { cacheGroup } from './cache/routes.ts';
import { cachedRoutesGroup } from './cached/routes.ts';
import { groupsGroup } from './groups/routes.ts';
import { healthGroup } from './health/routes.ts';
import { keysGroup } from './keys/routes.ts';
import { languagesGroup } from './languages/routes.ts';
import { manifestGroup } from './manifest/routes.ts';
import { translationsGroup } from './translations/routes.ts';
import type { RouteGroup } from './http/route-group.ts';

export const allRouteGroups: readonly RouteGroup[] = [healthGroup, keysGroup, groupsGroup, languagesGroup, translationsGroup, manifestGroup, cacheGroup, cachedRoutesGroup, adminGroup];
