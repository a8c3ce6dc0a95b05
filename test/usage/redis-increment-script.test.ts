// The Redis counter store counts with a Lua script (EVALSHA): one command that sets the count and
// its expiry together. A Redis that lost its script cache (restarted, SCRIPT FLUSH) still counts,
// without a lost or doubled increment (real Redis).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisCounterStore } from '../../core/adapters/counter-store-redis.ts';

describe.skipIf(!process.env.REDIS_URL)('the Redis increment script', () => {
  it('sets the expiry with the count, and survives a flushed script cache', async () => {
    const prefix = `test:${randomBytes(4).toString('hex')}:`;
    const store = createRedisCounterStore({ url: process.env.REDIS_URL!, keyPrefix: prefix });
    const admin = new Redis(process.env.REDIS_URL!);
    try {
      const expireAt = Math.floor(Date.now() / 1000) + 120;
      expect(await store.increment('calls', expireAt, 2)).toBe(2);
      expect(await admin.expiretime(`${prefix}calls`)).toBe(expireAt);
      await admin.script('FLUSH');
      expect(await store.increment('calls', expireAt)).toBe(3);
      expect(await Promise.all(Array.from({ length: 8 }, () => store.increment('calls', expireAt)))).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
      expect(await admin.get(`${prefix}calls`)).toBe('11');
      // The expiry given last wins, as EXPIREAT does.
      expect(await store.increment('calls', expireAt + 60)).toBe(12);
      expect(await admin.expiretime(`${prefix}calls`)).toBe(expireAt + 60);
    } finally {
      await admin.del(`${prefix}calls`);
      admin.disconnect();
      await store.close();
    }
  });
});
