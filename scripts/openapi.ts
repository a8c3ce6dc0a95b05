// Writes functions/lambda/openapi.json: the OpenAPI document of every route group, exactly as the
// local server answers GET /openapi.json. The health Lambda serves this file, so that it documents
// the whole API while bundling only its own route group (the others stay in their own functions).
//
//   npx tsx scripts/openapi.ts          regenerate (after changing a route or a schema)
//   npx tsx scripts/openapi.ts --check  exit 1 when the committed file is stale (CI)
//
// test/lambda/openapi.test.ts checks the same thing in the normal test suite.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../core/config.ts';
import type { Deps } from '../core/deps.ts';
import { silentLogger } from '../core/log.ts';
import { createApi } from '../functions/http/create-api.ts';
import { allRouteGroups } from '../functions/route-groups.ts';

export const OPENAPI_FILE = fileURLToPath(new URL('../functions/lambda/openapi.json', import.meta.url));

export async function generateOpenApi(): Promise<string> {
  // Describing routes touches no dependency; the app's middleware reads only these two fields.
  const deps = { config: loadConfig({ LOG_REQUESTS: 'false' }), log: silentLogger } as unknown as Deps;
  const res = await createApi(deps, allRouteGroups, { openapi: true }).request('/openapi.json');
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
