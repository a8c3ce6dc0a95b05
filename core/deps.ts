// Everything core needs from the outside world, built once per process (or Lambda cold start)
// and passed explicitly. No module singletons.
import type { Config } from './config.ts';
import type { Sql } from './db/client.ts';
import type { Tx } from './db/transaction.ts';
import type { Logger } from './log.ts';
import type { CounterStore } from './ports/counter-store.ts';
import type { ApiKeyVerifier } from './auth/api-key-verifier.ts';
import type { FailedAuthLimiter } from './auth/failed-auth-limiter.ts';
import type { CallCounter } from './usage/count-call.ts';
import type { ObjectStore } from './ports/object-store.ts';
import type { RebuildQueue } from './ports/rebuild-queue.ts';
import type { CacheReader } from './cache/cache-reader.ts';
import type { AutoRebuilder } from './cache/auto-rebuild.ts';
import type { EventBus } from './events/event-bus.ts';
import type { LiveMemo } from './translations/live-memo.ts';
import type { TaskProgressMemo } from './tasks/progress-memo.ts';
import type { GlossaryMemo } from './glossary/glossary-memo.ts';
import type { LiveFlights } from './translations/live-flights.ts';
import type { ValueWrites } from './translations/value-writes.ts';
import type { KeyCreations } from './keys/key-creations.ts';
import type { StatisticsRefresher } from './db/refresh-statistics.ts';
import type { MachineTranslator } from './ports/machine-translator.ts';
import type { EdgeCache } from './ports/edge-cache.ts';

export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };

export type Deps = {
  config: Config;
  sql: Sql;
  /** /health's own connection (real Postgres, long-running processes): a busy pool is not a down database. Unset: /health uses `sql`. */
  healthSql?: Sql | undefined;
  /**
   * An open transaction, when a use-case runs inside another's (`{ ...deps, tx }`): transaction()
   * then reuses it instead of opening a nested one. Unset for a top-level call.
   */
  tx?: Tx | undefined;
  /** Committed domain events, delivered in process after each write commits (auto-rebuild subscribes). */
  events: EventBus;
  counters: CounterStore;
  /** The daily API-call quota over `counters`, with its per-process fallback (one per process). */
  calls: CallCounter;
  apiKeys: ApiKeyVerifier;
  /** Built cache objects: S3, a directory, or memory. */
  objects: ObjectStore;
  /** Where rebuild requests go: SQS, or the in-process queue and builder. */
  queue: RebuildQueue;
  /** The shared cache in front of the API (CloudFront), told after each build which paths changed. */
  edge: EdgeCache;
  /** The serving side of the cache: current pointers and hot objects, bounded, in memory. */
  cache: CacheReader;
  /** Live read bodies by the project content version they were built for (core/translations/live-*.ts). */
  liveMemo: LiveMemo;
  /** Whole glossaries by the project glossary version they were read at, for the writes' warnings. */
  glossaryMemo: GlossaryMemo;
  /** Task progress counts by the stamp of what they were counted from (core/tasks/progress-memo.ts). */
  taskProgress: TaskProgressMemo;
  /** Live reads of one body that arrive together share one statement sent after they all arrived. */
  liveFlights: LiveFlights;
  /** Plain writes of values of one project that arrive together share one statement and commit. */
  valueWrites: ValueWrites;
  /** Key creations of one project (no key limit) that arrive together share one statement and commit. */
  keyCreations: KeyCreations;
  /** ANALYZE of the content tables after large changes, off the request path (core/db/refresh-statistics.ts). */
  statistics: StatisticsRefresher;
  /** Queues debounced rebuilds after content-changing events for projects with auto_rebuild on. */
  autoRebuild: AutoRebuilder;
  /** The configured machine translation provider; null when none is (memory still fills exact matches). */
  translator: MachineTranslator | null;
  clock: Clock;
  log: Logger;
  /** The admin token guarding /admin/v1 (configured, or generated into the data dir). */
  adminToken: string;
  /**
   * Failed admin-token checks per client address (AUTH_FAILURES_PER_MINUTE, in process): the admin
   * API and the portal's setup form (core/auth/admin-token-check.ts). API keys count theirs in `apiKeys`.
   */
  authFailures: FailedAuthLimiter;
};
