// Writes functions/lambda/openapi.json: the OpenAPI document of every route group, exactly as the
// local server answers GET /openapi.json. The health Lambda serves this file, so that it documents
// the whole API while bundling only its own route group (the others stay in their own functions).
//
//   npx tsx scripts/openapi.ts          regenerate (after changing a route or a schema)
//   npx tsx scripts/openapi.ts --check  exit 1 when the committed file is stale (CI)
//
// test/lambda/openapi.test.ts checks the same thing in the normal test suite; test/openapi/ checks the
// document itself (what a generated client needs) and that the service answers as it says.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../core/config.ts';
import type { Deps } from '../core/deps.ts';
import { silentLogger } from '../core/log.ts';
import { createApi } from '../functions/http/create-api.ts';
import { allRouteGroups } from '../functions/route-groups.ts';
import type { RouteGroup } from '../functions/http/route-group.ts';

export const OPENAPI_FILE = fileURLToPath(new URL('../functions/lambda/openapi.json', import.meta.url));

/**
 * The app as the local server builds it (route groups and GET /openapi.json, whose document options
 * are OPENAPI_OPTIONS in functions/http/describe.ts), over no real dependency: describing routes
 * touches none, and the app's middleware reads only config and log. Tests describe it this way too.
 */
export function describedApp(groups: readonly RouteGroup[] = allRouteGroups) {
  const deps = { config: loadConfig({ LOG_REQUESTS: 'false' }), log: silentLogger } as unknown as Deps;
  return createApi(deps, groups, { openapi: true });
}

export async function generateOpenApi(): Promise<string> {
  const res = await describedApp().request('/openapi.json');
  if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
  return JSON.stringify(await res.json(), null, 2) + '\n';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const fresh = await generateOpenApi();
  const current = await readFile(OPENAPI_FILE, 'utf8').catch(() => '');
  if (process.argv.includes('--check')) {
    if (current !== fresh) {
      process.stderr.write(`${OPENAPI_FILE} is stale: run \`npx tsx scripts/openapi.ts\` and commit it\n`);
      process.exit(1);
    }
    process.stdout.write('openapi.json is up to date\n');
  } else if (current === fresh) {
    process.stdout.write('openapi.json unchanged\n');
  } else {
    await writeFile(OPENAPI_FILE, fresh);
    process.stdout.write(`wrote ${OPENAPI_FILE} (${Buffer.byteLength(fresh)} bytes)\n`);
  }
}
