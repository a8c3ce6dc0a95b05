// Counters in Upstash over its REST API: the Lambda choice, since a function that freezes between
// invocations cannot hold a TCP connection. Each call is one HTTPS request with a hard deadline.
import { Redis } from '@upstash/redis';
import type { CounterStore } from '../ports/counter-store.ts';

export type UpstashCounterStoreOptions = {
  url: string;
  token: string;
  /** Prepended to every key, so several deployments can share one database. */
  keyPrefix?: string;
  /** Deadline for each call, the retry below included. */
  timeoutMs?: number;
};

export function createUpstashCounterStore(options: UpstashCounterStoreOptions): CounterStore {
  const keyPrefix = options.keyPrefix ?? '';
  const timeoutMs = options.timeoutMs ?? 1_000;
  const redis = new Redis({
    url: options.url,
    token: options.token,
    // A function, not a signal: the client calls it once per request, so every request gets a fresh
    // deadline. Given a plain AbortSignal the client would also turn an abort into a *successful*
    // reply whose result is the abort reason; with a function it rethrows the abort instead.
    signal: () => AbortSignal.timeout(timeoutMs),
    // The client's default is 5 retries with about 4 s of backoff in all. One immediate retry
    // covers a pooled keep-alive socket the server closed while the Lambda was frozen; the single
    // deadline above bounds both attempts.
    retry: { retries: 1, backoff: () => 0 },
    // Counters are plain integers: parse them here rather than let the client guess at JSON.
    automaticDeserialization: false,
    enableTelemetry: false,
  });

  return {
    async increment(key, expireAtUnixSeconds, by = 1) {
      const fullKey = keyPrefix + key;
      // One POST /multi-exec: atomic, and no reader sees the count without its expiry.
      const [value] = await redis
        .multi()
        .incrby(fullKey, by)
        .expireat(fullKey, expireAtUnixSeconds)
        .exec<[number, number]>();
      return Number(value);
    },
    async get(key) {
      const value = await redis.get<string>(keyPrefix + key);
      return value === null ? 0 : Number(value);
    },
    async ping() {
      await redis.ping();
    },
    // Nothing to release: requests are independent and fetch's connection pool needs no closing.
    async close() {},
  };
}
