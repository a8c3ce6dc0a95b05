// Two deployments sharing one Redis count apart when their REDIS_KEY_PREFIX differs (real Redis).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.ts';
import { createCounterStore } from '../../core/adapters/counter-store.ts';

describe.skipIf(!process.env.REDIS_URL)('REDIS_KEY_PREFIX', () => {
  it('keeps the counters of two deployments on one Redis apart', async () => {
    const run = randomBytes(4).toString('hex');
    const env = (prefix: string) => loadConfig({ REDIS_URL: process.env.REDIS_URL!, REDIS_KEY_PREFIX: `test:${run}:${prefix}:` });
    const staging = createCounterStore(env('staging'));
    const production = createCounterStore(env('production'));
    try {
      const expire = Math.floor(Date.now() / 1000) + 60;
      expect(await staging.increment('calls:acct:2026-11-23', expire, 3)).toBe(3);
      expect(await production.get('calls:acct:2026-11-23')).toBe(0);
      expect(await production.increment('calls:acct:2026-11-23', expire)).toBe(1);
      expect(await staging.get('calls:acct:2026-11-23')).toBe(3);
    } finally {
      await Promise.all([staging.close(), production.close()]);
    }
  });

  it('defaults to tms:', () => {
    expect(loadConfig({}).REDIS_KEY_PREFIX).toBe('tms:');
  });
});
