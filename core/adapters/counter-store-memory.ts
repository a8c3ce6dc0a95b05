// In-process counters for the embedded default and tests. Correct only within one process, which is
// exactly the embedded deployment; anything with more than one process needs Redis or Upstash.
import type { CounterStore } from '../ports/counter-store.ts';

/** Expired keys are swept at most this often, so a busy store never pays for a full scan per call. */
const SWEEP_INTERVAL_MS = 60_000;

type Counter = { value: number; expiresAtMs: number };

export type MemoryCounterStore = CounterStore & {
  /** Keys currently held, expired ones not yet swept included: lets tests see that memory stays bounded. */
  size(): number;
};

export function createMemoryCounterStore(options: { now?: () => number } = {}): MemoryCounterStore {
  const now = options.now ?? Date.now;
  const counters = new Map<string, Counter>();
  let nextSweepAtMs = 0;

  // Redis treats a key as gone once its expiry time is reached; match that so the contract holds.
  const isExpired = (counter: Counter, atMs: number) => counter.expiresAtMs <= atMs;

  function live(key: string, atMs: number): Counter | undefined {
    const counter = counters.get(key);
    if (counter && isExpired(counter, atMs)) {
      counters.delete(key);
      return undefined;
    }
    return counter;
  }

  // Keys that are never read again (yesterday's quota counters) would otherwise live forever.
  function sweepIfDue(atMs: number): void {
    if (atMs < nextSweepAtMs) return;
    nextSweepAtMs = atMs + SWEEP_INTERVAL_MS;
    for (const [key, counter] of counters) {
      if (isExpired(counter, atMs)) counters.delete(key);
    }
  }

  return {
    async increment(key, expireAtUnixSeconds, by = 1) {
      // INCRBY refuses non-integers; refusing here too keeps the adapters interchangeable.
      if (!Number.isSafeInteger(by)) throw new RangeError(`increment by must be an integer, got ${by}`);
      const atMs = now();
      sweepIfDue(atMs);
      const value = (live(key, atMs)?.value ?? 0) + by;
      counters.set(key, { value, expiresAtMs: expireAtUnixSeconds * 1000 });
      return value;
    },
    async get(key) {
      return live(key, now())?.value ?? 0;
    },
    async ping() {},
    async close() {
      counters.clear();
    },
    size: () => counters.size,
  };
}
