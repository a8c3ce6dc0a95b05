// The webhook worker for every mode but AWS (where SQS carries the attempts: webhook-queue-sqs.ts).
// Every process runs one loop: it turns the outbox into deliveries (dispatch-outbox.ts), claims due
// deliveries with FOR UPDATE SKIP LOCKED and a lease, so replicas share the table without sending a
// delivery twice at once, and runs up to `concurrency` attempts side by side. The loop is nudged by
// the event bus after writes commit (one look per NUDGE_MS at most), and otherwise sleeps until the next due retry (at most
// pollMs). Attempts never run in a request: a slow or dead endpoint costs an API call nothing.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { failureLog, type Logger } from '../log.ts';
import { dispatchOutbox, type DispatchDeps } from '../webhooks/dispatch-outbox.ts';
import { pruneDeliveries, PRUNE_EVERY_MS } from '../webhooks/prune-deliveries.ts';
import { attemptDelivery, claimDueDeliveries, leaseMsFor, nextClaimableAt, projectInFlight, type AttemptDeps } from '../webhooks/attempt-delivery.ts';

export type PostgresWebhookWorker = {
  /** Look for work now. */
  wake(): void;
  /**
   * Look for work soon: after a write committed events. At most one look per NUDGE_MS however many
   * writes commit, so a burst of writes costs the database a few polls, not three queries each.
   */
  nudge(): void;
  /** Attempts running in this process now. */
  sending(): number;
  /** Takes no new work and resolves once the running attempts finished (shutdown). */
  drain(): Promise<void>;
};

/** The longest a committed event waits before the worker looks at the outbox. */
export const NUDGE_MS = 200;

export function createPostgresWebhookWorker(options: {
  deps: DispatchDeps & AttemptDeps & { log: Logger };
  pollMs: number;
  concurrency?: number;
  workerId?: string;
}): PostgresWebhookWorker {
  const { deps, pollMs } = options;
  const { sql, log } = deps;
  const concurrency = options.concurrency ?? 8;
  // One project's attempts take at most this many of the slots (attempt-delivery.ts).
  const projectShare = projectInFlight(concurrency);
  const owner = options.workerId ?? `${hostname()}:${process.pid}:webhooks:${randomBytes(4).toString('hex')}`;
  const leaseMs = leaseMsFor(deps.config.WEBHOOKS_TIMEOUT_MS);
  const running = new Set<Promise<void>>();
  let stopped = false;
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

  /** Milliseconds until the next retry or gathered change is due (capped by pollMs). */
  async function nextDueIn(): Promise<number> {
    const [row] = await sql<{ ms: number | null }[]>`
      select extract(epoch from least(
        ${nextClaimableAt(sql, projectShare)},
        (select min(created_at) + make_interval(secs => ${deps.config.WEBHOOKS_DEBOUNCE_MS / 1000}) from webhook_outbox where webhook_type = 'translations.changed')
      ) - now()) * 1000 as ms`;
    const ms = row?.ms === null || row?.ms === undefined ? pollMs : Number(row.ms);
    return Math.min(pollMs, Math.max(5, Math.ceil(ms)));
  }

  const polls = failureLog(log, 'webhook worker poll failed', 'webhook worker poll works again');
  // Finished deliveries past their retention, at start and every PRUNE_EVERY_MS after. A failure
  // (writes refused on a full disk, the database away) is its own: logged once, tried at the next
  // time, never in the way of the deliveries.
  const prunes = failureLog(log, 'webhook delivery pruning failed', 'webhook delivery pruning works again');
  let nextPrune = 0;
  async function pruneWhenDue() {
    if (Date.now() < nextPrune) return;
    nextPrune = Date.now() + PRUNE_EVERY_MS;
    try {
      const pruned = await pruneDeliveries(deps);
      prunes.succeeded();
      if (pruned > 0) log.info('webhook deliveries past their retention deleted', { deliveries: pruned });
    } catch (error) {
      prunes.failed(error);
    }
  }

  async function loop() {
    while (!stopped) {
      woken = false;
      let wait = pollMs;
      try {
        await dispatchOutbox(deps);
        await pruneWhenDue();
        const free = concurrency - running.size;
        if (free > 0) {
          const claimed = stopped ? [] : await claimDueDeliveries(sql, owner, leaseMs, free, projectShare);
          polls.succeeded();
          for (const delivery of claimed) {
            const work = attemptDelivery(deps, delivery, owner)
              .then(() => undefined)
              .catch((error) => log.error('webhook attempt not recorded', { delivery_id: delivery.id, error: String(error) }))
              .finally(() => {
                running.delete(work);
                wake();
              });
            running.add(work);
          }
          if (claimed.length === free) continue;
          wait = await nextDueIn();
        } else polls.succeeded();
      } catch (error) {
        polls.failed(error);
      }
      await nap(wait);
    }
  }

  let nudged: NodeJS.Timeout | undefined;
  const nudge = () => {
    if (nudged || stopped) return;
    nudged = setTimeout(() => {
      nudged = undefined;
      wake();
    }, NUDGE_MS);
    nudged.unref?.();
  };

  const looping = loop();
  return {
    wake,
    nudge,
    sending: () => running.size,
    async drain() {
      stopped = true;
      clearTimeout(nudged);
      wake();
      await looping;
      await Promise.all(running);
    },
  };
}
