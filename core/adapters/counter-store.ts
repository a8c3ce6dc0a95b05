// Picks the counter adapter from configuration: Upstash REST (Lambda), Redis over TCP or its socket
// (self-hosted), or in-process memory (the embedded default). The remote ones coalesce concurrent
// calls on one counter into one round trip (counter-store-coalescing.ts); memory has no round trip.
import type { Config } from '../config.ts';
import type { CounterStore } from '../ports/counter-store.ts';
import { coalesceCounterStore } from './counter-store-coalescing.ts';
import { createMemoryCounterStore } from './counter-store-memory.ts';
import { createRedisCounterStore } from './counter-store-redis.ts';
import { createUpstashCounterStore } from './counter-store-upstash.ts';

export function createCounterStore(
  config: Pick<Config, 'REDIS_URL' | 'UPSTASH_REDIS_REST_URL' | 'UPSTASH_REDIS_REST_TOKEN' | 'REDIS_KEY_PREFIX'>,
  keyPrefix = config.REDIS_KEY_PREFIX,
): CounterStore {
  if (config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN) {
    return coalesceCounterStore(
      createUpstashCounterStore({ url: config.UPSTASH_REDIS_REST_URL, token: config.UPSTASH_REDIS_REST_TOKEN, keyPrefix }),
    );
  }
  if (config.REDIS_URL) return coalesceCounterStore(createRedisCounterStore({ url: config.REDIS_URL, keyPrefix }));
  return createMemoryCounterStore();
}
