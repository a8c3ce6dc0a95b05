// Builds Deps from live adapters: shared by long-running processes (create-runtime.ts) and Lambda
// entries (functions/lambda/), which choose their adapters differently but wire them the same way.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { MachineTranslator } from './ports/machine-translator.ts';
import type { Config } from './config.ts';
import type { Clock, Deps } from './deps.ts';
import { systemClock } from './deps.ts';
import type { Sql } from './db/client.ts';
import type { Logger } from './log.ts';
import type { CounterStore } from './ports/counter-store.ts';
import type { ObjectStore } from './ports/object-store.ts';
import type { EdgeCache } from './ports/edge-cache.ts';
import { createNoEdgeCache } from './adapters/edge-cache-none.ts';
import type { RebuildMessage, RebuildQueue } from './ports/rebuild-queue.ts';
import { createApiKeyVerifier } from './auth/api-key-verifier.ts';
import { createFailedAuthLimiter } from './auth/failed-auth-limiter.ts';
import { createCallCounter } from './usage/count-call.ts';
import { createCacheReader } from './cache/cache-reader.ts';
import { createAutoRebuilder } from './cache/auto-rebuild.ts';
import { buildProjectCache } from './cache/build-project-cache.ts';
import { holdRebuild, requestRebuild } from './cache/request-rebuild.ts';
import { createEventBus } from './events/event-bus.ts';
import { systemActor } from './actor.ts';
import { createLiveMemo } from './translations/live-memo.ts';
import { createTaskProgressMemo } from './tasks/progress-memo.ts';
import { createGlossaryMemo } from './glossary/glossary-memo.ts';
import { createLiveFlights } from './translations/live-flights.ts';
import { createValueWrites } from './translations/value-writes.ts';
import { createKeyCreations } from './keys/key-creations.ts';
import { createStatisticsRefresher } from './db/refresh-statistics.ts';

/** The live-read memo's budget: bodies of a few hundred large languages, in a fraction of a Lambda's memory. */
const LIVE_MEMO_BYTES = 64 * 2 ** 20;
/**
 * The glossary memo's budget: three full glossaries. 10,000 terms with a description and two
 * translations each held about 9 MiB of heap as a finder (measured 2026-12-03).
 */
const GLOSSARY_MEMO_TERMS = 30_000;
/**
 * Task progress counts held: a few dozen bytes each. A list sends the counts it holds for the
 * project with its statement, so a project's share stays small.
 */
const TASK_PROGRESS_PROJECTS = 1_000;
const TASK_PROGRESS_TASKS = 200;
/** Pages of task keys held: at most 500 keys each, some 60 KiB. */
const TASK_KEY_PAGES = 200;
/** At most one statistics look (and ANALYZE) per interval, per process. */
const STATISTICS_INTERVAL_MS = 5_000;

const AUTO_REBUILD = systemActor('auto-rebuild');

export type DepsInput = {
  config: Config;
  log: Logger;
  sql: Sql;
  healthSql?: Sql | undefined;
  counters: CounterStore;
  objects: ObjectStore;
  /** Makes the queue; a queue whose worker runs in this process runs `build` (the core builder over these same deps). */
  queue: (build: (message: RebuildMessage) => Promise<void>) => RebuildQueue;
  adminToken: string;
  /** The edge in front of the API (CloudFront); unset: none (self-hosted, embedded, tests). */
  edge?: EdgeCache;
  /**
   * The machine translator (translatorFromConfig), or null: passed in, not made here, so that a
   * Lambda that never translates (manifest, usage) bundles no provider (12 KB of their 300).
   */
  translator: MachineTranslator | null;
  clock?: Clock;
};

export function assembleDeps(input: DepsInput): Deps {
  const { config, log, sql, counters, objects } = input;
  const clock = input.clock ?? systemClock;
  const cache = createCacheReader({ objects, log });
  const build = async (message: RebuildMessage) => {
    const result = await buildProjectCache(deps, message);
    // A build in this process tells this process's reader at once; others see it within a second.
    if (result.status === 'built') cache.invalidate(message.projectId);
  };
  const events = createEventBus(log);
  // This process's name on its auto_rebuild holds (rebuild_holds: one per process and project).
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const deps: Deps = {
    config,
    sql,
    healthSql: input.healthSql,
    events,
    counters,
    calls: createCallCounter({ store: counters, log, now: () => clock.now().getTime() }),
    apiKeys: createApiKeyVerifier({
      sql,
      log,
      ttlMs: config.API_KEY_CACHE_SECONDS * 1000,
      negativeTtlMs: config.API_KEY_NEGATIVE_CACHE_SECONDS * 1000,
      failuresPerMinute: config.AUTH_FAILURES_PER_MINUTE,
    }),
    objects,
    edge: input.edge ?? createNoEdgeCache(),
    queue: input.queue(build),
    cache,
    liveMemo: createLiveMemo({ maxBytes: LIVE_MEMO_BYTES }),
    glossaryMemo: createGlossaryMemo({ maxTerms: GLOSSARY_MEMO_TERMS }),
    taskProgress: createTaskProgressMemo({ maxProjects: TASK_PROGRESS_PROJECTS, maxTasksPerProject: TASK_PROGRESS_TASKS, maxPages: TASK_KEY_PAGES }),
    liveFlights: createLiveFlights(),
    valueWrites: createValueWrites(sql),
    keyCreations: createKeyCreations(sql),
    statistics: createStatisticsRefresher({ sql, log, minIntervalMs: STATISTICS_INTERVAL_MS }),
    autoRebuild: createAutoRebuilder({
      debounceMs: config.AUTO_REBUILD_DEBOUNCE_MS,
      enabled: async (projectId) => {
        const [row] = await sql<{ on: boolean }[]>`select auto_rebuild as on from projects where id = ${projectId}`;
        return row?.on === true;
      },
      request: (projectId) => requestRebuild(deps, { projectId, actor: AUTO_REBUILD, releaseHold: holder }),
      hold: (projectId, holdMs) => holdRebuild(deps, projectId, holder, holdMs),
      log,
    }),
    translator: input.translator,
    clock,
    log,
    adminToken: input.adminToken,
    authFailures: createFailedAuthLimiter({ perMinute: config.AUTH_FAILURES_PER_MINUTE }),
  };
  events.subscribe(deps.autoRebuild.subscriber);
  events.subscribe(deps.statistics.subscriber);
  return deps;
}
