// Single-row writes of one project that arrive together, sent as one statement and one commit: the
// shape behind plain PUTs of values (core/translations/value-writes.ts) and key creation
// (core/keys/key-creations.ts). docs/decisions.md, "Writes that arrive together, commit together".
//
// Per project at most `maxInFlight` statements run at once. A write that finds a free slot is sent at
// once, alone (no added latency when writes are sparse); one that finds none joins the first queued
// batch that has room and does not already hold the same row (`identity`), and that batch is sent
// when a slot frees. Each write is answered after its batch commits, so a read that starts after a
// 2xx sees it. A batch that fails as a whole for another reason than a lost connection (one write's
// bad input, a lock it would not wait for) frees its slot, and its writes are retried one at a time,
// so one write's error is never another's. Batches are per project: a project's import holding row
// locks never delays another project's writes.
import type { Sql } from './client.ts';
import { isConnectionError } from './errors.ts';

/**
 * How long a batch waits for a lock before it gives up and its writes go one at a time, each waiting
 * as long as it must. Two reasons. Several row locks held at once can close a cycle with a bulk
 * change of the same project (a language removal, an import) that a lone write never could: the
 * batch must be the one to yield, well before Postgres's deadlock check (deadlock_timeout, 1 s by
 * default) might pick the bulk change as its victim. And a batch holds its project's slot: a row
 * locked by a long transaction must not stop the project's other writes for longer than this.
 */
export const BATCH_LOCK_TIMEOUT_MS = 100;

/** Postgres's lock_not_available: a lock wait ran past lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * The lock_timeout for a statement's own transaction, as `set_config('lock_timeout', coalesce(<this>,
 * current_setting('lock_timeout')), true)`: null (for 0) keeps whatever the server is set to.
 */
export const lockTimeoutSetting = (ms: number) => (ms > 0 ? `${ms}ms` : null);

export type StatementBatches<I, R> = {
  /** Writes `item` (with the others that arrive meanwhile); rejects with the database's error. */
  write(sql: Sql, item: I): Promise<R>;
  /** Statements in flight, all projects (tests, diagnostics). */
  inFlight(): number;
};

export type BatchOptions<I, R> = {
  /** The one statement for a batch: a row per item, in the order of the items; lock waits bounded by `lockTimeoutMs` (0: unbounded). */
  send: (sql: Sql, items: I[], lockTimeoutMs: number) => Promise<R[]>;
  /** Batches never mix projects. */
  project: (item: I) => string;
  /** The row an item writes: a batch holds each at most once. */
  identity: (item: I) => string;
  maxInFlight: number;
  maxBatch: number;
};

type Pending<I, R> = { item: I; resolve: (row: R) => void; reject: (error: unknown) => void };
type Batch<I, R> = { writes: Pending<I, R>[]; rows: Set<string> };
type Project<I, R> = { inFlight: number; queued: Batch<I, R>[] };

export function createStatementBatches<I, R>(sql: Sql, options: BatchOptions<I, R>): StatementBatches<I, R> {
  const projects = new Map<string, Project<I, R>>();
  let running = 0;

  // One batch's statement. `release` frees its slot and sends the project's next batch: on success
  // before this batch's writes are answered, so that the database works on the next statement while
  // this process answers the last one's clients; on failure after the retries are sent, which are
  // older than the writes queued meanwhile and go one at a time once the slot is free again.
  const run = async (writes: Pending<I, R>[], release: () => void): Promise<void> => {
    let rows: R[];
    try {
      rows = await options.send(sql, writes.map((w) => w.item), BATCH_LOCK_TIMEOUT_MS);
    } catch (error) {
      const lockWait = (error as { code?: unknown } | null)?.code === LOCK_NOT_AVAILABLE;
      if (isConnectionError(error) || (writes.length === 1 && !lockWait)) {
        release();
        for (const w of writes) w.reject(error);
      } else {
        writes.forEach(alone);
        release();
      }
      return;
    }
    release();
    writes.forEach((w, i) => w.resolve(rows[i]!));
  };

  // Alone, a write waits for locks as any statement does, outside the project's slots: a row held by
  // an import delays the writes of that row, not the project's queue.
  const alone = (w: Pending<I, R>) => void options.send(sql, [w.item], 0).then((rows) => w.resolve(rows[0]!), w.reject);

  const send = (key: string, project: Project<I, R>) => {
    while (project.inFlight < options.maxInFlight && project.queued.length > 0) {
      const batch = project.queued.shift()!;
      project.inFlight++;
      running++;
      void run(batch.writes, () => {
        project.inFlight--;
        running--;
        if (project.inFlight === 0 && project.queued.length === 0) projects.delete(key);
        else send(key, project);
      });
    }
  };

  return {
    write(callerSql, item) {
      // Another client (a test's own pool): written alone on it, as the same statement.
      if (callerSql !== sql) return options.send(callerSql, [item], 0).then((rows) => rows[0]!);
      return new Promise<R>((resolve, reject) => {
        const key = options.project(item);
        let project = projects.get(key);
        if (!project) projects.set(key, (project = { inFlight: 0, queued: [] }));
        const row = options.identity(item);
        let batch = project.queued.find((b) => b.writes.length < options.maxBatch && !b.rows.has(row));
        if (!batch) project.queued.push((batch = { writes: [], rows: new Set() }));
        batch.writes.push({ item, resolve, reject });
        batch.rows.add(row);
        send(key, project);
      });
    },
    inFlight: () => running,
  };
}
