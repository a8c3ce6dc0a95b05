// The call counter over a CounterStore: keys and expiry, decisions, and the per-process fallback
// when the store fails (one log line per transition, back to the store once it answers).
import { describe, expect, it } from 'vitest';
import { createMemoryCounterStore } from '../../core/adapters/counter-store-memory.ts';
import { PLAN_LIMITS, PLANS } from '../../core/accounts/plans.ts';
import { createMemoryLogger } from '../../core/log.ts';
import type { CounterStore } from '../../core/ports/counter-store.ts';
import {
  COUNTER_EXPIRY_SLACK_SECONDS,
  callCounterKey,
  createCallCounter,
  dailyCallLimit,
} from '../../core/usage/count-call.ts';

const at = (iso: string) => Date.parse(iso);

/** A real memory store that records calls and can be switched off, like a Redis going away. */
function switchableStore(now: () => number) {
  const inner = createMemoryCounterStore({ now });
  const calls: { op: 'increment' | 'get'; key: string; expireAt?: number }[] = [];
  let down = false;
  const store: CounterStore = {
    async increment(key, expireAt, by) {
      calls.push({ op: 'increment', key, expireAt });
      if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      return inner.increment(key, expireAt, by);
    },
    async get(key) {
      calls.push({ op: 'get', key });
      if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      return inner.get(key);
    },
    ping: () => (down ? Promise.reject(new Error('down')) : Promise.resolve()),
    close: () => inner.close(),
  };
  return {
    store,
    calls,
    setDown: (value: boolean) => {
      down = value;
    },
  };
}

describe('dailyCallLimit', () => {
  it("is the plan's limit unless the account has an override, which may be 0", () => {
    for (const plan of PLANS) expect(dailyCallLimit({ plan, dailyCallLimit: null })).toBe(PLAN_LIMITS[plan].dailyApiCalls);
    expect(dailyCallLimit({ plan: 'free', dailyCallLimit: 20 })).toBe(20);
    expect(dailyCallLimit({ plan: 'business', dailyCallLimit: 0 })).toBe(0);
  });

  it("serves each plan's daily limit plus 10% grace (spec section 8), and refuses the next call", async () => {
    // The spec's figures, written out: the limits and their grace are not derived from the code.
    const spec = { free: [5_000, 500], solo: [50_000, 5_000], team: [500_000, 50_000], business: [5_000_000, 500_000] } as const;
    expect(Object.keys(spec).sort()).toEqual(PLANS.filter((p) => p !== 'unlimited').sort());
    const now = at('2024-03-09T12:00:00Z');
    for (const plan of Object.keys(spec) as (keyof typeof spec)[]) {
      const [limit, grace] = spec[plan];
      const store = createMemoryCounterStore({ now: () => now });
      const counter = createCallCounter({ store, log: createMemoryLogger(), now: () => now });
      const account = { accountId: plan, limit: dailyCallLimit({ plan, dailyCallLimit: null }) };
      expect(account.limit, plan).toBe(limit);
      // Today's earlier calls, all but the last one of the grace zone.
      await store.increment(callCounterKey(plan, now), Math.floor(now / 1000) + 86_400, limit + grace - 1);
      expect(await counter.count(account), plan).toMatchObject({ used: limit + grace, grace, allowed: true, remaining: 0 });
      expect(await counter.count(account), plan).toMatchObject({ used: limit + grace + 1, allowed: false });
    }
  });
});

describe('createCallCounter', () => {
  it('counts per account per UTC day, expiring an hour after the next midnight', async () => {
    let now = at('2024-03-09T12:00:00Z');
    const s = switchableStore(() => now);
    const counter = createCallCounter({ store: s.store, log: createMemoryLogger(), now: () => now });
    expect((await counter.count({ accountId: 'a', limit: 10 })).used).toBe(1);
    expect((await counter.count({ accountId: 'a', limit: 10 })).used).toBe(2);
    expect((await counter.count({ accountId: 'b', limit: 10 })).used).toBe(1);
    expect(s.calls[0]).toEqual({
      op: 'increment',
      key: 'calls:a:2024-03-09',
      expireAt: at('2024-03-10T00:00:00Z') / 1000 + COUNTER_EXPIRY_SLACK_SECONDS,
    });
    expect(COUNTER_EXPIRY_SLACK_SECONDS).toBe(3_600);
    expect(callCounterKey('a', now)).toBe('calls:a:2024-03-09');
    // One store operation per call, and peeking does not count.
    expect(s.calls).toHaveLength(3);
    expect((await counter.peek({ accountId: 'a', limit: 10 })).used).toBe(2);
    expect((await counter.count({ accountId: 'a', limit: 10 })).used).toBe(3);

    now = at('2024-03-10T00:00:00Z');
    expect((await counter.count({ accountId: 'a', limit: 10 })).used).toBe(1);
    expect(s.calls.at(-1)?.key).toBe('calls:a:2024-03-10');
  });

  it('allows up to limit + grace, reports remaining within the limit and seconds to midnight', async () => {
    const now = at('2024-03-09T23:00:00Z');
    const counter = createCallCounter({ store: createMemoryCounterStore({ now: () => now }), log: createMemoryLogger(), now: () => now });
    const tallies = [];
    for (let i = 0; i < 23; i++) tallies.push(await counter.count({ accountId: 'a', limit: 20 }));
    expect(tallies.map((t) => t.allowed)).toEqual([...Array(22).fill(true), false]);
    expect(tallies[0]).toMatchObject({ used: 1, limit: 20, grace: 2, remaining: 19, resetSeconds: 3_600, source: 'store' });
    expect(tallies[19]).toMatchObject({ used: 20, remaining: 0, allowed: true });
    expect(tallies[21]).toMatchObject({ used: 22, remaining: 0, allowed: true });
    expect(tallies[22]).toMatchObject({ used: 23, remaining: 0, allowed: false });
  });

  it('refuses every call under a limit of 0', async () => {
    const counter = createCallCounter({ store: createMemoryCounterStore(), log: createMemoryLogger() });
    expect(await counter.count({ accountId: 'a', limit: 0 })).toMatchObject({ used: 1, allowed: false, remaining: 0, grace: 0 });
  });

  it('falls back to a per-process count while the store fails, logging the outage and the recovery once each', async () => {
    let now = at('2024-03-09T12:00:00Z');
    const s = switchableStore(() => now);
    const log = createMemoryLogger();
    const counter = createCallCounter({ store: s.store, log, now: () => now, retryIntervalMs: 1_000 });
    const account = { accountId: 'a', limit: 3 };

    expect(await counter.count(account)).toMatchObject({ used: 1, source: 'store' });
    expect(await counter.count(account)).toMatchObject({ used: 2, source: 'store' });

    s.setDown(true);
    const during = [];
    for (let i = 0; i < 5; i++) during.push(await counter.count(account));
    // The process starts its own count, and still enforces limit + grace (3 + 0) with it.
    expect(during.map((t) => [t.used, t.allowed, t.source])).toEqual([
      [1, true, 'process'],
      [2, true, 'process'],
      [3, true, 'process'],
      [4, false, 'process'],
      [5, false, 'process'],
    ]);
    // Only the first call tried the store; the rest skip it until the retry interval passes.
    expect(s.calls.filter((c) => c.op === 'increment')).toHaveLength(3);
    expect(log.lines).toEqual([
      { level: 'warn', msg: 'counter store unreachable: counting API calls per process until it answers', error: 'connect ECONNREFUSED 127.0.0.1:6379' },
    ]);

    now += 1_000;
    expect(await counter.count(account)).toMatchObject({ used: 6, source: 'process' });
    expect(s.calls.filter((c) => c.op === 'increment')).toHaveLength(4);
    expect(log.lines).toHaveLength(1);

    s.setDown(false);
    expect(await counter.count(account)).toMatchObject({ used: 7, source: 'process' }); // within the interval
    now += 1_000;
    // Back to the store, whose count carries on from before the outage.
    expect(await counter.count(account)).toMatchObject({ used: 3, source: 'store' });
    expect(await counter.count(account)).toMatchObject({ used: 4, source: 'store' });
    expect(log.lines.map((l) => [l.level, l.msg])).toEqual([
      ['warn', 'counter store unreachable: counting API calls per process until it answers'],
      ['info', 'counter store reachable again: API calls counted in the store'],
    ]);

    // A second outage is a second transition, logged again.
    s.setDown(true);
    await counter.count(account);
    await counter.peek(account);
    expect(log.lines.filter((l) => l.level === 'warn')).toHaveLength(2);
  });

  it('lets a single call probe a failing store while concurrent calls use the process count', async () => {
    let now = 0;
    const s = switchableStore(() => now);
    const log = createMemoryLogger();
    const counter = createCallCounter({ store: s.store, log, now: () => now, retryIntervalMs: 1_000 });
    s.setDown(true);
    await counter.count({ accountId: 'a', limit: 100 });
    now += 1_000;
    const before = s.calls.length;
    const tallies = await Promise.all(Array.from({ length: 16 }, () => counter.count({ accountId: 'a', limit: 100 })));
    expect(s.calls.length - before).toBe(1);
    expect(tallies.map((t) => t.used).toSorted((x, y) => x - y)).toEqual(Array.from({ length: 16 }, (_, i) => i + 2));
    expect(log.lines).toHaveLength(1);
  });
});
