// Counters in Upstash over its REST API: the Lambda choice, since a function that freezes between
// invocations cannot hold a TCP connection. Each call is one HTTPS request with a hard deadline.
import { randomBytes } from 'node:crypto';
import { Redis } from '@upstash/redis';
import type { CounterStore } from '../ports/counter-store.ts';

/**
 * INCRBY and EXPIREAT in one step that a retry cannot repeat. The client retries a request whose
 * answer it did not get (below): when the server had run it and only the answer was lost (a reply
 * past the deadline, a connection dropped on the way back), a plain INCRBY counted one API call
 * twice. Each increment names itself (KEYS[2], a random id kept a minute with its result): the
 * retry finds it and answers the first result instead of adding again.
 */
const INCREMENT_ONCE = `
local done = redis.call('GET', KEYS[2])
if done then return tonumber(done) end
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('EXPIREAT', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], value, 'EX', 60)
return value`;

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
    // covers a pooled keep-alive socket the server closed while the Lambda was frozen; each attempt
    // has its own deadline (above). An increment's retry is made harmless by INCREMENT_ONCE.
    retry: { retries: 1, backoff: () => 0 },
    // Counters are plain integers: parse them here rather than let the client guess at JSON.
    automaticDeserialization: false,
    enableTelemetry: false,
  });

  return {
    async increment(key, expireAtUnixSeconds, by = 1) {
      const fullKey = keyPrefix + key;
      // One script: atomic, and no reader sees the count without its expiry.
      const once = `${fullKey}:once:${randomBytes(9).toString('base64url')}`;
      const value = await redis.eval<[string, string], number>(INCREMENT_ONCE, [fullKey, once], [String(by), String(expireAtUnixSeconds)]);
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
