// Turns a Config into live Deps for a long-running process (the local server, tests, benchmarks).
// Lambda entries use the same pieces through functions/lambda/.
import { join, resolve } from 'node:path';
import type { Config } from './config.ts';
import type { Deps } from './deps.ts';
import { translatorFromConfig } from './translate/translator-from-config.ts';
import type { StatisticsRefresher } from './db/refresh-statistics.ts';
import type { EmbeddedPostgres } from './db/embedded.ts';
import { migrateDatabase, openDatabase } from './db/open-database.ts';
import { createJsonLogger, type Logger } from './log.ts';
import { resolveAdminToken } from './auth/admin-token.ts';
import { createCounterStore } from './adapters/counter-store.ts';
import { createEdgeCache, createObjectStore, createRebuildQueue } from './adapters/cache-adapters.ts';
import { assembleDeps } from './assemble-deps.ts';
import type { PostgresRebuildQueue } from './adapters/rebuild-queue-postgres.ts';
import { createPostgresWebhookWorker, type PostgresWebhookWorker } from './adapters/webhook-worker-postgres.ts';

export type Runtime = {
  deps: Deps;
  /** Where the admin token came from, so the local server can tell a newcomer. */
  adminTokenSource: Awaited<ReturnType<typeof resolveAdminToken>>;
  embedded: EmbeddedPostgres | undefined;
  /** The rebuild worker of this process (unset on SQS, where the builder Lambda builds). */
  rebuilds: PostgresRebuildQueue | undefined;
  /** The webhook worker of this process (unset when WEBHOOKS_QUEUE_URL names SQS: the delivery Lambda sends). */
  webhooks: PostgresWebhookWorker | undefined;
  close(): Promise<void>;
};

export async function createRuntime(
  config: Config,
  options: {
    log?: Logger;
    migrate?: boolean;
    /** Start the embedded database from this dump instead of the data dir (tests). */
    embeddedData?: Blob;
    /** Namespace for shared counters, so test files never see each other's. */
    counterKeyPrefix?: string;
  } = {},
): Promise<Runtime> {
  const log = options.log ?? createJsonLogger();
  const dataDir = resolve(config.TMS_DATA_DIR);
  const db = await openDatabase(config, { log, ...(options.embeddedData ? { embeddedData: options.embeddedData } : {}) });
  const { sql, healthSql, embedded, diskGuard } = db;
  const closers: (() => Promise<unknown>)[] = [];
  if (diskGuard) closers.push(() => diskGuard.close());
  try {
    if (options.migrate) {
      const applied = await migrateDatabase(db, config);
      if (applied.length) log.info('migrations applied', { applied });
    }
    const counters = createCounterStore(config, options.counterKeyPrefix);
    closers.push(() => counters.close());
    const adminTokenSource = await resolveAdminToken(config.TMS_ADMIN_TOKEN, dataDir);
    let rebuilds: PostgresRebuildQueue | undefined;
    const deps = assembleDeps({
      config,
      log,
      sql,
      healthSql,
      counters,
      objects: createObjectStore(config, dataDir),
      edge: createEdgeCache(config),
      queue: (build) => {
        // PGlite's data dir belongs to this one process: any claim in it is a killed run's leftover.
        const made = createRebuildQueue(config, { log, sql, build, soleWorker: embedded !== undefined });
        rebuilds = made.worker;
        return made.queue;
      },
      adminToken: adminTokenSource.token,
      translator: translatorFromConfig(config),
    });
    // Pending auto rebuilds are made due first; the queue then finishes its running builds and
    // leaves the rest in the database for the next process.
    closers.push(() => deps.queue.close(), () => deps.autoRebuild.flush(), async () => deps.statistics.close());
    if (embedded) closers.push(sweepStatisticsPeriodically(deps.statistics));
    // Webhooks: the outbox and its deliveries live in the database; this process's worker sends them.
    const webhooks = config.WEBHOOKS_QUEUE_URL ? undefined : createPostgresWebhookWorker({ deps, pollMs: config.WEBHOOKS_POLL_MS });
    if (webhooks) {
      deps.events.subscribe(() => webhooks.nudge());
      closers.push(() => webhooks.drain());
    }
    return {
      deps,
      adminTokenSource,
      embedded,
      rebuilds,
      webhooks,
      async close() {
        for (const close of closers.reverse()) await close().catch(() => {});
        await sql.end({ timeout: 5 });
        await healthSql?.end({ timeout: 1 });
        await embedded?.close();
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => {});
    await sql.end({ timeout: 1 }).catch(() => {});
    await healthSql?.end({ timeout: 1 }).catch(() => {});
    await embedded?.close().catch(() => {});
    throw error;
  }
}

/**
 * PGlite runs no autovacuum, so without this its planner never learns how big tables have grown and
 * picks plans that are fine for ten rows and ruinous for a million (seen: a 10,000-key read taking
 * 15 s instead of 15 ms). Soon after start and then every ten minutes, in the background, what
 * autovacuum would do: ANALYZE of the tables changed past its threshold, and of those never analyzed
 * (core/db/refresh-statistics.ts). Not a blind ANALYZE of everything: PGlite's one backend runs in
 * this process's thread, and that ANALYZE of a 30,000-value project held every request for 0.4-0.5 s
 * after each start and every ten minutes, on a database nothing had changed.
 */
const SWEEP_EVERY_MS = 10 * 60 * 1000;
const FIRST_SWEEP_AFTER_MS = 5_000;
function sweepStatisticsPeriodically(statistics: StatisticsRefresher): () => Promise<void> {
  const sweep = () => statistics.sweep();
  const first = setTimeout(sweep, FIRST_SWEEP_AFTER_MS);
  const every = setInterval(sweep, SWEEP_EVERY_MS);
  first.unref();
  every.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
