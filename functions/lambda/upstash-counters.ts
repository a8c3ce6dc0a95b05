// Shared counters over Upstash's REST API: a frozen Lambda cannot keep a TCP connection to Redis.
// Imported directly rather than through core/adapters/counter-store.ts, which would bundle ioredis.
import type { Config } from '../../core/config.ts';
import { createUpstashCounterStore } from '../../core/adapters/counter-store-upstash.ts';
import type { CounterStore } from '../../core/ports/counter-store.ts';

export function upstashCounters(config: Config): CounterStore {
  const { UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: token } = config;
  if (!url || !token) throw new Error('upstashCounters needs UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN');
  return createUpstashCounterStore({ url, token, keyPrefix: config.REDIS_KEY_PREFIX });
}
