// `npm start`: the whole service in one Node process. With no environment at all it runs on
// embedded defaults (PGlite under TMS_DATA_DIR, in-memory counters); DATABASE_URL, REDIS_URL and
// friends point it at real services (docs/decisions.md, README "Configuration").
import { chmod } from 'node:fs/promises';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Server } from 'node:http';
import { clientAddressFrom } from './http/client-address.ts';
import { EDGE_SERVER_OPTIONS, hardenNodeServer } from './http/node-server-edge.ts';
import { respondTogether } from './http/respond-together.ts';
import { checkServerConfig, ConfigError, loadConfig, type Config } from '../core/config.ts';
import { isConnectionError } from '../core/db/errors.ts';
import { createObjectStore } from '../core/adapters/cache-adapters.ts';
import { createRuntime, type Runtime } from '../core/create-runtime.ts';
import { createJsonLogger, type Logger } from '../core/log.ts';
import { createApi } from './http/create-api.ts';
import { allRouteGroups } from './route-groups.ts';
import { docsGroup } from './docs/routes.ts';

// The parent as it was when this process began: the shell of `npm start` may be gone before the
// service is up (a stop during a slow first start).
const PARENT_AT_START = process.ppid;

async function main() {
  // Everything this process writes (the embedded database, the admin token, built cache files) is
  // for this user alone: directories 0700, files 0600. An existing data dir is tightened too.
  process.umask(0o077);
  const config = loadConfig();
  checkServerConfig(config);
  await chmod(config.TMS_DATA_DIR, 0o700).catch(() => {});
  const log = createJsonLogger();
  const started = performance.now();
  await checkBucket(config, log);
  const runtime = await createRuntime(config, { log, migrate: true }).catch((error: unknown) => {
    throw databaseStartupError(config, error) ?? error;
  });
  // /docs (Swagger UI, its assets served by us) is local-only: docs/deploy.md says why.
  const app = createApi(runtime.deps, [...allRouteGroups, docsGroup], {
    openapi: true,
    clientAddress: clientAddressFrom((c) => getConnInfo(c).remote.address, config.TRUST_PROXY_HOPS),
  });
  const server = serve({ fetch: respondTogether(app.fetch), port: config.PORT, hostname: config.HOST, serverOptions: EDGE_SERVER_OPTIONS }, (info) => {
    // An IPv6 address is bracketed in a URL (http://[::1]:3000).
    const base = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${info.port}`;
    log.info('tms listening', {
      url: base,
      database: config.DATABASE_URL ? 'postgres (DATABASE_URL)' : `embedded PGlite in ${config.TMS_DATA_DIR}/pgdata`,
      counters: config.UPSTASH_REDIS_REST_URL ? 'upstash' : config.REDIS_URL ? 'redis (REDIS_URL)' : 'in-process',
      startup_ms: Math.round(performance.now() - started),
    });
    const admin = runtime.adminTokenSource;
    // The token's value is printed once, when it is generated, for the local newcomer; after that
    // only where it is kept, so that it does not land in every log collector on every start.
    // Production sets TMS_ADMIN_TOKEN: its value is never printed, only that it comes from there.
    if (admin.source === 'generated') {
      process.stdout.write(`\n  tms is running at ${base}\n  Portal: ${base}/portal\n  Admin token (generated now, kept in ${admin.path}):\n    ${admin.token}\n\n`);
    } else {
      // The operator's own token (TMS_ADMIN_TOKEN) is never printed, only where it came from.
      const where = admin.source === 'env' ? 'from TMS_ADMIN_TOKEN' : `in ${admin.path}`;
      process.stdout.write(`\n  tms is running at ${base}\n  Portal: ${base}/portal\n  Admin token: ${where}\n\n`);
    }
  });
  // A port in use (another replica, a second `npm start`) is a setting to change, not a crash: say
  // so in one line, hand back what the workers claimed meanwhile, and exit 1.
  (server as Server).once('error', (error: NodeJS.ErrnoException) => {
    const reason = error.code === 'EADDRINUSE' ? 'the address is in use (another process listens there: choose another PORT)' : String(error.message);
    log.error('cannot listen', { host: config.HOST, port: config.PORT, error: error.code ?? String(error) });
    process.stderr.write(`Cannot listen on ${config.HOST}:${config.PORT}: ${reason}\n`);
    void releaseAndExit(runtime, 1, (code) => process.exit(code));
  });
  hardenNodeServer(server as Server, { requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS, headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS });
  installGracefulShutdown({
    server: server as Server,
    runtime,
    log,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    say: (line) => process.stdout.write(`${line}\n`),
    exit: (code) => process.exit(code),
  });
}

// How `npm start` stops on SIGTERM (a deploy, docker stop) or Ctrl-C: it stops accepting, lets the
// requests in flight and the running builds finish, says what it waits for, and exits within
// SHUTDOWN_TIMEOUT_MS. A second signal exits at once: what it leaves is safe, since a rebuild
// request is durable in the database and a build interrupted half-way publishes nothing (the next
// start, or another replica, builds it again).
type ShutdownOptions = {
  server: Server;
  runtime: Pick<Runtime, 'close' | 'rebuilds' | 'webhooks'>;
  log: Logger;
  timeoutMs: number;
  /** What a person at the terminal reads (the JSON log says the same for collectors). */
  say: (line: string) => void;
  exit: (code: number) => void;
};

function installGracefulShutdown(options: ShutdownOptions): void {
  const { server, runtime, log, timeoutMs, say, exit } = options;
  let inFlight = 0;
  let stopping = false;
  server.on('request', (_req, res) => {
    inFlight++;
    // A request that came in on a kept-alive connection while stopping: its connection ends with it.
    if (stopping) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inFlight--;
      // Its connection is idle once this response is out: close it, so that server.close() ends.
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
  });

  const stop = async (signal: string) => {
    if (stopping) {
      log.warn('exiting now', { signal });
      say('  Exiting now. Rebuilds not finished are picked up again on the next start.');
      await releaseAndExit(runtime, 1, exit);
      return;
    }
    stopping = true;
    const started = performance.now();
    const builds = runtime.rebuilds?.building() ?? 0;
    log.info('shutting down', { signal, requests_in_flight: inFlight, builds_running: builds, timeout_ms: timeoutMs });
    const waitingFor = [inFlight && `${inFlight} request${inFlight === 1 ? '' : 's'}`, builds && `${builds} build${builds === 1 ? '' : 's'}`].filter(Boolean);
    say(
      waitingFor.length
        ? `\n  Shutting down: waiting for ${waitingFor.join(' and ')} to finish (at most ${Math.ceil(timeoutMs / 1000)} s). Press Ctrl-C again to exit now.`
        : '\n  Shutting down.',
    );
    const timer = setTimeout(() => {
      log.error('shutdown timed out', { timeout_ms: timeoutMs, requests_in_flight: inFlight, builds_running: runtime.rebuilds?.building() ?? 0 });
      say('  Shutdown timed out: exiting. Rebuilds not finished are picked up again on the next start.');
      // The unfinished builds' claims go back, so that another replica builds them now rather than
      // after their lease lapses (30 s).
      void releaseAndExit(runtime, 1, exit);
    }, timeoutMs);
    try {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // No new builds or webhook attempts from now; the running ones finish (an attempt within its
      // 10 s timeout). Then requests, then the database. Pending deliveries wait in the database.
      await Promise.all([closed, runtime.rebuilds?.drain(), runtime.webhooks?.drain()]);
      await runtime.close();
      clearTimeout(timer);
      log.info('shut down', { ms: Math.round(performance.now() - started) });
      exit(0);
    } catch (error) {
      clearTimeout(timer);
      log.error('shutdown failed', { error: String(error) });
      exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // `npm start` runs this under `sh -c`, and npm passes a SIGTERM (a deploy, `docker stop`, `kill`)
  // to that shell only, which exits without passing it on: this process would keep running,
  // orphaned and holding the port, and the next start would fail with "address in use". Under npm,
  // the shell going away is npm stopping the script. (Ctrl-C reaches every process of the terminal's
  // group, this one included, and has already started the shutdown when the shell goes.)
  if (process.env.npm_lifecycle_event === 'start') {
    watchParent(() => {
      if (!stopping) void stop('parent exited (npm start stopped)');
    });
  }
}

/** Calls `onGone` once when this process's first parent has exited (its parent pid changed); checks twice a second. */
function watchParent(onGone: () => void): void {
  const timer = setInterval(() => {
    if (process.ppid === PARENT_AT_START) return;
    clearInterval(timer);
    onGone();
  }, 500);
  timer.unref();
}

/**
 * Exits without waiting for running builds, first giving this process's build claims back, best
 * effort and bounded: another replica need not wait for them to lapse. A process that cannot do it
 * quickly just goes.
 */
async function releaseAndExit(runtime: Pick<Runtime, 'rebuilds'>, code: number, exit: (code: number) => void): Promise<void> {
  const released = runtime.rebuilds?.abandon().catch(() => {});
  await Promise.race([released, new Promise((resolve) => setTimeout(resolve, 250))]);
  exit(code);
}

/**
 * A named S3 bucket that does not exist, or credentials the store refuses, are settings to correct:
 * say so and exit 1, before anything runs (the server would otherwise start, answer /health 200, and
 * fail every build and cached read). A store that does not answer (yet) is only a warning: it may
 * come up after tms.
 */
async function checkBucket(config: Config, log: Logger): Promise<void> {
  if (!config.S3_BUCKET) return;
  const objects = createObjectStore(config, config.TMS_DATA_DIR);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer within 5 s')), 5_000);
  });
  try {
    await Promise.race([objects.get('tms-start-check'), deadline]);
  } catch (error) {
    if ((error as Error | undefined)?.name === 'NoSuchBucket') {
      throw new ConfigError(
        `The S3 bucket "${config.S3_BUCKET}" does not exist${config.S3_ENDPOINT ? ` at ${config.S3_ENDPOINT}` : ''} (S3_BUCKET): create it, or correct S3_BUCKET or S3_ENDPOINT.`,
      );
    }
    const name = (error as Error | undefined)?.name ?? '';
    if (S3_REFUSALS.has(name)) {
      throw new ConfigError(
        `The S3 store${config.S3_ENDPOINT ? ` at ${config.S3_ENDPOINT}` : ''} refused tms's credentials (${name}): correct AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or the profile or role the AWS SDK finds), or the bucket's policy.`,
      );
    }
    log.warn('object store not reachable at start: builds and cached reads fail until it answers', { error: String(error) });
  } finally {
    clearTimeout(timer);
  }
}

/** S3's answers that no wait will change: the credentials or the policy are wrong. */
const S3_REFUSALS = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'CredentialsProviderError']);

/** Postgres refusals at connection time: no such database, no such role, a wrong password, pg_hba. */
const CONNECTION_REFUSALS = new Set(['3D000', '28000', '28P01']);

/**
 * The database named by DATABASE_URL could not be used at start: one line saying which (host, port
 * and database, never the password) and why, instead of a driver's stack trace. Undefined for any
 * other error, which is shown whole.
 */
function databaseStartupError(config: Config, error: unknown): ConfigError | undefined {
  if (!config.DATABASE_URL) return undefined;
  const code = (error as { code?: unknown } | null)?.code;
  if (!isConnectionError(error) && !(typeof code === 'string' && CONNECTION_REFUSALS.has(code))) return undefined;
  const url = new URL(config.DATABASE_URL);
  const where = `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  const reason = error instanceof Error ? error.message.replace(/^write /, '') : String(error);
  return new ConfigError(
    `Cannot use the database at ${where} (DATABASE_URL): ${reason}.\n` +
      `  Check that PostgreSQL runs there and accepts this user and database (createdb creates one).`,
  );
}

main().catch((error) => {
  process.stderr.write((error instanceof ConfigError ? error.message : (error?.stack ?? String(error))) + '\n');
  process.exit(1);
});
