// RebuildQueue on the project's own Postgres, for every mode but AWS (which has SQS). The queue is
// cache_state (migrations 003 and 006): a project is pending while requested_seq > built_seq, so a
// request is durable the moment its transaction commits, before the 202; and while auto_rebuild
// holds one (rebuild_holds, migration 026), due at the hold's time. Every process runs one
// worker loop over it; replicas share the table and claim a project with FOR UPDATE SKIP LOCKED and
// a lease that the builder renews, so a claim of a killed process lapses and another takes it.
// Guarantees, as the in-process queue gave them before: a burst of requests gives at most two builds
// (requests during a build collapse into the row; the next build waits minIntervalMs after the
// last start), builds of one project never overlap (the lease; the snapshot's advisory lock besides),
// and the last build starts after the last request (it reads requested_seq in its snapshot).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Sql } from '../db/client.ts';
import { failureLog, type Logger } from '../log.ts';
import { BUILD_FAILED_MESSAGE } from '../cache/build-state.ts';
import type { RebuildMessage, RebuildQueue } from '../ports/rebuild-queue.ts';

export type PostgresRebuildQueue = RebuildQueue & {
  /** Projects this process is building right now (the shutdown message names how many). */
  building(): number;
  /**
   * Resolves once this process builds nothing and no project is pending without a failure (tests;
   * a failed build's retry is not waited for). A debounced request is waited for: see due().
   */
  idle(): Promise<void>;
  /** Makes every debounced (not failed) pending build due now and wakes the worker (tests). */
  due(): Promise<void>;
  /**
   * Takes no new builds from now on and resolves once the running ones finished (shutdown). Sends
   * are still recorded: the next process, or another replica, builds them.
   */
  drain(): Promise<void>;
  /** Gives this process's claims back at once, for an exit that cannot wait for its builds. */
  abandon(): Promise<void>;
};

export type PostgresRebuildQueueOptions = {
  sql: Sql;
  handle: (message: RebuildMessage) => Promise<void>;
  log: Logger;
  /** How often the worker looks for work that another process queued (default 2 s). */
  pollMs?: number;
  /** How long a claim holds without renewal (default 30 s); renewed every third of it. */
  leaseMs?: number;
  /** Least time between the starts of two builds of one project (default 100 ms). */
  minIntervalMs?: number;
  /** First retry delay after a failed build, doubled per failure up to maxRetryMs (1 s, 5 min). */
  retryBaseMs?: number;
  maxRetryMs?: number;
  /** Builds of different projects this process runs at once (default 2). */
  concurrency?: number;
  /**
   * Clear every claim on start. Only for a database this process owns alone (embedded PGlite): a
   * claim there can only be a leftover of this data dir's previous, killed, process.
   */
  soleWorker?: boolean;
  workerId?: string;
};

type Claim = { project_id: string; seq: number };

export function createPostgresRebuildQueue(options: PostgresRebuildQueueOptions): PostgresRebuildQueue {
  const { sql, handle, log } = options;
  const pollMs = options.pollMs ?? 2000;
  const leaseMs = options.leaseMs ?? 30_000;
  const minIntervalMs = options.minIntervalMs ?? 100;
  const retryBaseMs = options.retryBaseMs ?? 1000;
  const maxRetryMs = options.maxRetryMs ?? 5 * 60_000;
  const concurrency = options.concurrency ?? 2;
  const owner = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const running = new Map<string, Promise<void>>();
  let closed = false;
  // Set by drain() and close(): the loop ends and no build is claimed any more.
  let stopped = false;

  // The loop sleeps until woken (a local send, a finished build, close) or until the next due time.
  let woken = false;
  let wakeUp: (() => void) | undefined;
  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopped) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  const secs = (ms: number) => ms / 1000;

  /**
   * A project is due when a request waits (requested_seq > built_seq, past its not_before) or when
   * an auto_rebuild hold's time has come (rebuild_holds, migration 026). Claiming a due hold takes it
   * (only holds whose time has come: another process's later hold stays for its writes), and adds a
   * request when none waits, so the build is not taken for one already covered.
   */
  async function claim(): Promise<Claim | undefined> {
    const mine = [...running.keys()];
    const [row] = await sql<Claim[]>`
      with due as (
        select project_id from cache_state where requested_seq > built_seq and (not_before is null or not_before <= now())
        union
        select project_id from rebuild_holds where held_until <= now()
      ), next as (
        select project_id from cache_state
        where project_id in (select project_id from due)
          and (lease_until is null or lease_until <= now())
          and (last_started_at is null or last_started_at <= now() - make_interval(secs => ${secs(minIntervalMs)}))
          and project_id::text <> all(${sql.array(mine)}::text[])
        order by last_started_at nulls first, project_id
        limit 1
        for update skip locked
      ), taken as (
        delete from rebuild_holds h using next where h.project_id = next.project_id and h.held_until <= now()
      )
      update cache_state c
      set lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${secs(leaseMs)}), last_started_at = now(),
          requested_seq = case when c.requested_seq > c.built_seq then c.requested_seq else c.requested_seq + 1 end
      from next where c.project_id = next.project_id
      returning c.project_id, c.requested_seq::int as seq`;
    return row;
  }

  /** Milliseconds until the earliest pending build not running here may start (capped by pollMs). */
  async function nextDueIn(): Promise<number> {
    const mine = [...running.keys()];
    const [row] = await sql<{ ms: number | null }[]>`
      -- now(), not -infinity, for "no constraint": Postgres before 17 cannot subtract infinities.
      select extract(epoch from min(greatest(
        wanted,
        coalesce(lease_until, now()),
        coalesce(last_started_at + make_interval(secs => ${secs(minIntervalMs)}), now())
      )) - now()) * 1000 as ms
      from (
        select coalesce(not_before, now()) as wanted, lease_until, last_started_at, project_id
        from cache_state where requested_seq > built_seq
        union all
        select h.held_until, c.lease_until, c.last_started_at, c.project_id
        from rebuild_holds h join cache_state c on c.project_id = h.project_id
      ) pending
      where project_id::text <> all(${sql.array(mine)}::text[])`;
    const ms = row?.ms === null || row?.ms === undefined ? pollMs : Number(row.ms);
    return Math.min(pollMs, Math.max(5, Math.ceil(ms)));
  }

  function run({ project_id: projectId, seq }: Claim) {
    log.info('rebuild started', { project_id: projectId, seq });
    const renew = setInterval(() => {
      sql`update cache_state set lease_until = now() + make_interval(secs => ${secs(leaseMs)})
          where project_id = ${projectId} and lease_owner = ${owner}`.catch((error) =>
        log.warn('rebuild claim not renewed', { project_id: projectId, error: String(error) }),
      );
    }, Math.max(50, Math.floor(leaseMs / 3)));
    const work = (async () => {
      try {
        await handle({ projectId, seq });
      } catch (error) {
        log.error('rebuild failed', { project_id: projectId, seq, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
        // Retried after a backoff that doubles per failure; a new request retries at once.
        await sql`
          update cache_state set lease_owner = null, lease_until = null, attempts = attempts + 1,
            failed_at = now(), last_error = ${BUILD_FAILED_MESSAGE},
            not_before = now() + make_interval(secs => least(${secs(maxRetryMs)}, ${secs(retryBaseMs)} * power(2, least(attempts, 30))))
          where project_id = ${projectId} and lease_owner = ${owner}`;
        return;
      }
      await sql`update cache_state set lease_owner = null, lease_until = null
                where project_id = ${projectId} and lease_owner = ${owner}`;
    })()
      // The claim then lapses after leaseMs, and whoever takes it next builds again if still pending.
      .catch((error) => log.error('rebuild claim not released', { project_id: projectId, error: String(error) }))
      .finally(() => {
        clearInterval(renew);
        running.delete(projectId);
        wake();
      });
    running.set(projectId, work);
  }

  const polls = failureLog(log, 'rebuild queue poll failed', 'rebuild queue poll works again');

  async function loop() {
    if (options.soleWorker) {
      await sql`update cache_state set lease_owner = null, lease_until = null where lease_owner is not null`.catch((error) =>
        log.warn('stale rebuild claims not cleared', { error: String(error) }),
      );
    }
    while (!stopped) {
      woken = false;
      let wait = pollMs;
      try {
        if (running.size < concurrency) {
          const claimed = await claim();
          polls.succeeded();
          if (claimed && !stopped) {
            run(claimed);
            continue;
          }
          if (claimed) {
            // Stopped between the claim and now: give it straight back for the next process.
            await sql`update cache_state set lease_owner = null, lease_until = null
                      where project_id = ${claimed.project_id} and lease_owner = ${owner}`;
            break;
          }
          wait = await nextDueIn();
        }
      } catch (error) {
        polls.failed(error);
      }
      await nap(wait);
    }
  }

  const looping = loop();

  return {
    async send({ projectId, seq }) {
      if (closed) throw new Error('rebuild queue is closed');
      // requestRebuild has committed this already; the upsert makes send() durable on its own.
      await sql`
        insert into cache_state (project_id, requested_seq) values (${projectId}, ${seq})
        on conflict (project_id) do update set requested_seq = greatest(cache_state.requested_seq, excluded.requested_seq)`;
      wake();
    },
    building: () => running.size,
    async idle() {
      for (;;) {
        if (running.size === 0) {
          const [row] = await sql<{ busy: boolean }[]>`
            select exists (select 1 from cache_state where requested_seq > built_seq and attempts = 0)
              or exists (select 1 from rebuild_holds h join cache_state c on c.project_id = h.project_id where c.attempts = 0) as busy`;
          if (!row?.busy) return;
        }
        wake();
        await Promise.race([...running.values(), new Promise((resolve) => setTimeout(resolve, 10))]);
      }
    },
    async due() {
      await sql`update cache_state set not_before = null where requested_seq > built_seq and attempts = 0 and not_before is not null`;
      await sql`update rebuild_holds set held_until = now() where held_until > now()`;
      wake();
    },
    async drain() {
      stopped = true;
      wake();
      await looping;
      await Promise.all(running.values());
    },
    async abandon() {
      stopped = closed = true;
      wake();
      await sql`update cache_state set lease_owner = null, lease_until = null where lease_owner = ${owner}`;
    },
    async close() {
      stopped = closed = true;
      wake();
      await looping;
      await Promise.all(running.values());
    },
  };
}
