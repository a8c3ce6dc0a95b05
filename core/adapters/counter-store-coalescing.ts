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
//
// At most one round trip per counter is in flight: calls that arrive while one is on its way wait
// for it and then go together, in the next one. On a loaded machine a round trip spans several
// turns, and each turn's call was a socket write of its own for the service and a command for Redis
// (about 4.7 requests per round trip over the seed and the write rows; docs/decisions.md). A call
// on a quiet counter waits for nothing more than before. If the round trip in flight fails, the
// calls waiting behind it fail with it at once: a Redis that does not answer must turn into a quick
// fallback, not into a queue of timeouts one after another. This leans on the store's own
// deadline, which both remote adapters put on every command (commandTimeout, AbortSignal.timeout):
// a round trip that never settled would hold its counter's later calls with it.
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
  // Waiting to be sent, keyed by expiry and key for increments (calls that disagree on the expiry
  // are not merged) and by key for reads; and the ids with a round trip on its way.
  const increments = new Map<string, IncrementBatch>();
  const reads = new Map<string, Waiter<number>[]>();
  const incrementsInFlight = new Set<string>();
  const readsInFlight = new Set<string>();
  let scheduled = false;

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  }

  function flush(): void {
    scheduled = false;
    for (const [id, batch] of increments) {
      if (incrementsInFlight.has(id)) continue;
      increments.delete(id);
      sendIncrement(id, batch);
    }
    for (const [key, waiters] of reads) {
      if (readsInFlight.has(key)) continue;
      reads.delete(key);
      sendRead(key, waiters);
    }
  }

  function sendIncrement(id: string, batch: IncrementBatch): void {
    incrementsInFlight.add(id);
    send(() => store.increment(batch.key, batch.expireAtUnixSeconds, batch.total)).then(
      (value) => {
        incrementsInFlight.delete(id);
        if (increments.has(id)) schedule();
        let handed = value - batch.total;
        for (const waiter of batch.waiters) waiter.resolve((handed += waiter.by));
      },
      (error) => {
        incrementsInFlight.delete(id);
        const behind = increments.get(id);
        increments.delete(id);
        for (const waiter of batch.waiters) waiter.reject(error);
        for (const waiter of behind?.waiters ?? []) waiter.reject(error);
      },
    );
  }

  function sendRead(key: string, waiters: Waiter<number>[]): void {
    readsInFlight.add(key);
    send(() => store.get(key)).then(
      (value) => {
        readsInFlight.delete(key);
        if (reads.has(key)) schedule();
        for (const waiter of waiters) waiter.resolve(value);
      },
      (error) => {
        readsInFlight.delete(key);
        const behind = reads.get(key);
        reads.delete(key);
        for (const waiter of waiters) waiter.reject(error);
        for (const waiter of behind ?? []) waiter.reject(error);
      },
    );
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
        // Behind a round trip in flight, the batch is sent when that one is answered.
        if (!incrementsInFlight.has(id)) schedule();
      });
    },
    get(key) {
      return new Promise<number>((resolve, reject) => {
        let waiters = reads.get(key);
        if (!waiters) reads.set(key, (waiters = []));
        waiters.push({ resolve, reject });
        if (!readsInFlight.has(key)) schedule();
      });
    },
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
