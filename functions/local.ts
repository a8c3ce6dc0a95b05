// `npm start`: the whole service in one Node process. With no environment at all it runs on
// embedded defaults (PGlite under TMS_DATA_DIR, in-memory counters); DATABASE_URL, REDIS_URL and
// friends point it at real services (docs/decisions.md, README "Configuration").
import { chmod } from 'node:fs/promises';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Server } from 'node:http';
import { clientAddressFrom } from './http/client-address.ts';
import { EDGE_SERVER_OPTIONS, hardenNodeServer } from './http/node-server-edge.ts';
import { ConfigError, loadConfig } from '../core/config.ts';
import { createRuntime } from '../core/create-runtime.ts';
import { createJsonLogger } from '../core/log.ts';
import { createApi } from './http/create-api.ts';
import { allRouteGroups } from './route-groups.ts';
import { docsGroup } from './docs/routes.ts';

async function main() {
  // Everything this process writes (the embedded database, the admin token, built cache files) is
  // for this user alone: directories 0700, files 0600. An existing data dir is tightened too.
  process.umask(0o077);
  const config = loadConfig();
  await chmod(config.TMS_DATA_DIR, 0o700).catch(() => {});
  const log = createJsonLogger();
  const started = performance.now();
  const runtime = await createRuntime(config, { log, migrate: true });
  // /docs (Swagger UI, its assets served by us) is local-only: docs/deploy.md says why.
  const app = createApi(runtime.deps, [...allRouteGroups, docsGroup], {
    openapi: true,
    clientAddress: clientAddressFrom((c) => getConnInfo(c).remote.address, config.TRUST_PROXY_HOPS),
  });
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST, serverOptions: EDGE_SERVER_OPTIONS }, (info) => {
    const base = `http://${config.HOST}:${info.port}`;
    log.info('tms listening', {
      url: base,
      database: config.DATABASE_URL ? 'postgres (DATABASE_URL)' : `embedded PGlite in ${config.TMS_DATA_DIR}/pgdata`,
      counters: config.UPSTASH_REDIS_REST_URL ? 'upstash' : config.REDIS_URL ? 'redis (REDIS_URL)' : 'in-process',
      startup_ms: Math.round(performance.now() - started),
    });
    const admin = runtime.adminTokenSource;
    // The token's value is printed once, when it is generated, for the local newcomer; after that
    // only where it is kept, so that it does not land in every log collector on every start.
    // Production sets TMS_ADMIN_TOKEN and never sees either.
    if (admin.source === 'generated') {
      process.stdout.write(`\n  tms is running at ${base}\n  Portal: ${base}/portal\n  Admin token (generated now, kept in ${admin.path}):\n    ${admin.token}\n\n`);
    } else if (admin.source !== 'env') {
      process.stdout.write(`\n  tms is running at ${base}\n  Portal: ${base}/portal\n  Admin token: in ${admin.path}\n\n`);
    }
  });
  hardenNodeServer(server as Server, { requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS, headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    server.close();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  process.stderr.write((error instanceof ConfigError ? error.message : (error?.stack ?? String(error))) + '\n');
  process.exit(1);
});
