// Fast shared counters for the daily API-call quota, and the "redis" dependency of /health.
// Redis over TCP when self-hosted, Upstash REST on Lambda, memory in the embedded default.

export interface CounterStore {
  /**
   * Atomically adds `by` (default 1) to the counter and makes it expire at `expireAtUnixSeconds`
   * (set on every call, idempotently). Returns the new value. One round trip.
   */
  increment(key: string, expireAtUnixSeconds: number, by?: number): Promise<number>;
  /** The counter's current value, 0 when absent or expired. */
  get(key: string): Promise<number>;
  /** Resolves when the store answers; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
