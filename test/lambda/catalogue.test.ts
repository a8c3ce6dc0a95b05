// The catalogue (functions/catalogue.ts) is the one list of functions: every entry has its handler
// file exporting a Lambda handler, every HTTP entry has the route group the local server mounts at
// the same prefix, and nothing under functions/ ships a handler the catalogue does not list.
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, HTTP_FUNCTIONS, entryFileOf, handlerOf } from '../../functions/catalogue.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';

describe('the function catalogue', () => {
  it('names, components, directories and prefixes are unique', () => {
    for (const field of ['name', 'component', 'dir'] as const) {
      expect(new Set(CATALOGUE.map((e) => e[field])).size, field).toBe(CATALOGUE.length);
    }
    const prefixes = HTTP_FUNCTIONS.map((e) => e.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it('every handler directory under functions/ is in the catalogue, and every entry has its file', () => {
    const dirs = readdirSync('functions', { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(`functions/${d.name}/handler.ts`))
      .map((d) => d.name)
      .sort();
    expect(dirs).toEqual(CATALOGUE.map((e) => e.dir).sort());
    for (const entry of CATALOGUE) expect(handlerOf(entry)).toBe(entryFileOf(entry).replace(/\.ts$/, '.handler'));
  });

  it('the local server mounts one group per HTTP entry, in catalogue order, at the same prefix', () => {
    expect(allRouteGroups.map((g) => [g.name, g.prefix])).toEqual(HTTP_FUNCTIONS.map((e) => [e.name, e.prefix]));
  });

  it('each entry file exports a handler', async () => {
    for (const entry of CATALOGUE) {
      const mod = (await import(`../../${entryFileOf(entry)}`)) as { handler?: unknown };
      expect(typeof mod.handler, entry.name).toBe('function');
    }
  });
});
