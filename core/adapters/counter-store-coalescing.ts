// Concurrent calls on one counter share one round trip to a remote store (Redis, Upstash). The
// quota check runs on every API request: under load, many requests of one account are in flight at
// once, and each paid a whole transaction (MULTI, INCRBY, EXPIREAT, EXEC) of its own. Measured on the
// cached-key read over Redis, that was 126 us of the service's CPU per request against 71 us with
// in-process counters (docs/decisions.md, "Quota counts share round trips").
//
// The calls made during one turn of the event loop are gathered and sent together when the turn
// ends (setImmediate): n increments of one key become one INCRBY n, whose result T hands out
// T-n+1 .. T in arrival order, exactly what n separate atomic increments would have handed out; no
// two calls ever get the same count, and a limit is never passed by more than it would be without
// this. Reads of one key in that turn share one GET, sent after all of them were asked, so a read
// still sees every increment that completed before it began.
import type { CounterStore } from '../ports/counter-store.ts';

type Waiter<T> = { resolve: (value: T) => void; reject: (error: unknown) => void };
type IncrementBatch = { key: string; expireAtUnixSeconds: number; total: number; waiters: (Waiter<number> & { by: number })[] };

/** The store's call as a promise even if it throws at once: a throw in flush would strand its callers. */
function send(call: () => Promise<number>): Promise<number> {
  try {
    return call();
  } catch (error) {
    return Promise.reject(error);
  }
}

export function coalesceCounterStore(store: CounterStore): CounterStore {
  // Keyed by expiry and key: calls that disagree on the expiry are not merged.
  let increments = new Map<string, IncrementBatch>();
  let reads = new Map<string, Waiter<number>[]>();
  let scheduled = false;

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  }

  function flush(): void {
    scheduled = false;
    const incrementBatches = increments;
    const readBatches = reads;
    increments = new Map();
    reads = new Map();
    for (const batch of incrementBatches.values()) {
      send(() => store.increment(batch.key, batch.expireAtUnixSeconds, batch.total)).then(
        (value) => {
          let handed = value - batch.total;
          for (const waiter of batch.waiters) waiter.resolve((handed += waiter.by));
        },
        (error) => {
          for (const waiter of batch.waiters) waiter.reject(error);
        },
      );
    }
    for (const [key, waiters] of readBatches) {
      send(() => store.get(key)).then(
        (value) => {
          for (const waiter of waiters) waiter.resolve(value);
        },
        (error) => {
          for (const waiter of waiters) waiter.reject(error);
        },
      );
    }
  }

  return {
    increment(key, expireAtUnixSeconds, by = 1) {
      // Refused on its own, before it could make a whole batch fail.
      if (!Number.isSafeInteger(by)) return Promise.reject(new RangeError(`increment by must be an integer, got ${by}`));
      return new Promise<number>((resolve, reject) => {
        const id = `${expireAtUnixSeconds}:${key}`;
        let batch = increments.get(id);
        if (!batch) increments.set(id, (batch = { key, expireAtUnixSeconds, total: 0, waiters: [] }));
        batch.total += by;
        batch.waiters.push({ by, resolve, reject });
        schedule();
      });
    },
    get(key) {
      return new Promise<number>((resolve, reject) => {
        let waiters = reads.get(key);
        if (!waiters) reads.set(key, (waiters = []));
        waiters.push({ resolve, reject });
        schedule();
      });
    },
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
