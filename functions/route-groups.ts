// Every route group, in the catalogue's order (functions/catalogue.ts). The local server mounts them
// all; each Lambda mounts one. The record type makes a catalogue entry without a group, or a group
// the catalogue does not list, a compile error.
import { adminGroup } from './admin/routes.ts';
import { cacheBuildsGroup } from './cache-builds/routes.ts';
import { cachedRoutesGroup } from './cached/routes.ts';
import { groupsGroup } from './groups/routes.ts';
import { healthGroup } from './health/routes.ts';
import { keysGroup } from './keys/routes.ts';
import { languagesGroup } from './languages/routes.ts';
import { manifestGroup } from './manifest/routes.ts';
import { translationsGroup } from './translations/routes.ts';
import { importGroup } from './import/routes.ts';
import { exportGroup } from './export/routes.ts';
import { usageGroup } from './usage/routes.ts';
import { glossaryGroup } from './glossary/routes.ts';
import { screenshotsGroup } from './screenshots/routes.ts';
import { tasksGroup } from './tasks/routes.ts';
import { translateGroup } from './translate/routes.ts';
import { portalGroup } from './portal/routes.ts';
import { HTTP_FUNCTIONS, type HttpFunctionName } from './catalogue.ts';
import type { RouteGroup } from './http/route-group.ts';

const byName: Record<HttpFunctionName, RouteGroup> = {
  health: healthGroup,
  keys: keysGroup,
  groups: groupsGroup,
  languages: languagesGroup,
  translations: translationsGroup,
  manifest: manifestGroup,
  cacheBuilds: cacheBuildsGroup,
  cached: cachedRoutesGroup,
  import: importGroup,
  export: exportGroup,
  translate: translateGroup,
  glossary: glossaryGroup,
  screenshots: screenshotsGroup,
  tasks: tasksGroup,
  usage: usageGroup,
  admin: adminGroup,
  portal: portalGroup,
};

export const allRouteGroups: readonly RouteGroup[] = HTTP_FUNCTIONS.map((entry) => {
  const group = byName[entry.name as HttpFunctionName];
  if (group.name !== entry.name) throw new Error(`route group ${group.name} is registered as ${entry.name}`);
  return group;
});
