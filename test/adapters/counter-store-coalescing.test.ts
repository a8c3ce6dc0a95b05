// The coalescing wrapper that createCounterStore puts around Redis and Upstash: calls made in one
// turn of the event loop, or while a round trip of their counter is in flight, share one round trip,
// and every caller still gets the count that its own atomic increment would have given it. (The wrapper also passes the counter-store contract.)
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { coalesceCounterStore } from '../../core/adapters/counter-store-coalescing.ts';
import { createMemoryCounterStore } from '../../core/adapters/counter-store-memory.ts';
import { createMemoryLogger } from '../../core/log.ts';
import type { CounterStore } from '../../core/ports/counter-store.ts';
import { createCallCounter } from '../../core/usage/count-call.ts';

const inAMinute = () => Math.floor(Date.now() / 1000) + 60;

/** A real memory store that records what reaches it, and can fail like a Redis gone away. */
function recordingStore(options: { slowReadsMs?: number } = {}) {
  const inner = createMemoryCounterStore();
  const calls: string[] = [];
  let down = false;
  const store: CounterStore = {
    async increment(key, expireAt, by = 1) {
      calls.push(`increment ${key} ${by}`);
      if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      return inner.increment(key, expireAt, by);
    },
    async get(key) {
      calls.push(`get ${key}`);
      if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      // The value is read when the command arrives; the answer may travel back slowly.
      const value = await inner.get(key);
      if (options.slowReadsMs) await sleep(options.slowReadsMs);
      return value;
    },
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
  return { store, calls, setDown: (value: boolean) => void (down = value) };
}

describe('coalescing counter store', () => {
  it('sends the increments of one turn as one INCRBY per key, and hands out the counts in arrival order', async () => {
    const { store, calls } = recordingStore();
    const coalesced = coalesceCounterStore(store);
    const expireAt = inAMinute();
    const a = Array.from({ length: 32 }, () => coalesced.increment('a', expireAt));
    const b = [coalesced.increment('b', expireAt, 5), coalesced.increment('b', expireAt, 2)];
    expect(await Promise.all(a)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    expect(await Promise.all(b)).toEqual([5, 7]);
    expect(calls.toSorted()).toEqual(['increment a 32', 'increment b 7']);

    // The next turn's batch continues from there.
    expect(await Promise.all([coalesced.increment('a', expireAt), coalesced.increment('a', expireAt)])).toEqual([33, 34]);
    expect(calls).toHaveLength(3);
  });

  it('never merges increments that disagree on the expiry', async () => {
    const { store, calls } = recordingStore();
    const coalesced = coalesceCounterStore(store);
    const soon = inAMinute();
    const values = await Promise.all([coalesced.increment('k', soon), coalesced.increment('k', soon + 60)]);
    expect(values.toSorted()).toEqual([1, 2]);
    expect(calls).toEqual(['increment k 1', 'increment k 1']);
  });

  it('shares one GET among the reads of one turn, and a later read never joins an earlier one in flight', async () => {
    const { store, calls } = recordingStore({ slowReadsMs: 50 });
    const coalesced = coalesceCounterStore(store);
    const expireAt = inAMinute();
    const early = [coalesced.get('k'), coalesced.get('k'), coalesced.get('k')];
    await nextTurn();
    // The early GET is on its way (slowly); an increment is answered meanwhile.
    expect(await coalesced.increment('k', expireAt)).toBe(1);
    // A read that begins now must see that increment, so it cannot share the early GET's answer.
    const late = coalesced.get('k');
    expect(await Promise.all(early)).toEqual([0, 0, 0]);
    expect(await late).toBe(1);
    expect(calls.filter((call) => call.startsWith('get'))).toEqual(['get k', 'get k']);
  });

  it('holds the calls that arrive while a round trip of their counter is in flight, and sends them together when it is answered', async () => {
    const inner = createMemoryCounterStore();
    const calls: string[] = [];
    // Each round trip waits until the test lets it through, as a reply still on its way would.
    const gates: (() => void)[] = [];
    const gated: CounterStore = {
      async increment(key, expireAt, by = 1) {
        calls.push(`increment ${key} ${by}`);
        await new Promise<void>((open) => gates.push(open));
        return inner.increment(key, expireAt, by);
      },
      async get(key) {
        calls.push(`get ${key}`);
        const value = await inner.get(key);
        await new Promise<void>((open) => gates.push(open));
        return value;
      },
      ping: () => inner.ping(),
      close: () => inner.close(),
    };
    const coalesced = coalesceCounterStore(gated);
    const expireAt = inAMinute();
    const first = coalesced.increment('a', expireAt);
    await nextTurn();
    expect(calls).toEqual(['increment a 1']);
    // Over three more turns, while the first is on its way: none of them is sent yet.
    const behind: Promise<number>[] = [];
    for (let turn = 0; turn < 3; turn++) {
      behind.push(coalesced.increment('a', expireAt), coalesced.increment('a', expireAt, 2));
      await nextTurn();
    }
    // Another counter is not held by this one's round trip.
    const other = coalesced.increment('b', expireAt);
    await nextTurn();
    expect(calls).toEqual(['increment a 1', 'increment b 1']);
    gates.splice(0).forEach((open) => open());
    expect(await first).toBe(1);
    expect(await other).toBe(1);
    await nextTurn();
    // The six waiting calls went as one INCRBY, and got their counts in arrival order.
    expect(calls).toEqual(['increment a 1', 'increment b 1', 'increment a 9']);
    gates.splice(0).forEach((open) => open());
    expect(await Promise.all(behind)).toEqual([2, 4, 5, 7, 8, 10]);

    // Reads too: those asked while a GET is on its way share the next GET, sent once it is answered.
    const early = coalesced.get('a');
    await nextTurn();
    const late = [coalesced.get('a')];
    await nextTurn();
    late.push(coalesced.get('a'));
    await nextTurn();
    expect(calls.filter((call) => call.startsWith('get'))).toEqual(['get a']);
    gates.splice(0).forEach((open) => open());
    expect(await early).toBe(10);
    await nextTurn();
    expect(calls.filter((call) => call.startsWith('get'))).toEqual(['get a', 'get a']);
    gates.splice(0).forEach((open) => open());
    expect(await Promise.all(late)).toEqual([10, 10]);
  });

  it('fails the calls waiting behind a failed round trip at once with it, and sends the next ones again', async () => {
    const inner = createMemoryCounterStore();
    const calls: string[] = [];
    let fail: ((error: Error) => void) | undefined;
    let broken = true;
    const store: CounterStore = {
      async increment(key, expireAt, by = 1) {
        calls.push(`increment ${key} ${by}`);
        if (broken) return new Promise<number>((_, reject) => (fail = reject));
        return inner.increment(key, expireAt, by);
      },
      async get(key) {
        calls.push(`get ${key}`);
        if (broken) return new Promise<number>((_, reject) => (fail = reject));
        return inner.get(key);
      },
      ping: () => inner.ping(),
      close: () => inner.close(),
    };
    const coalesced = coalesceCounterStore(store);
    const expireAt = inAMinute();
    const first = coalesced.increment('k', expireAt);
    await nextTurn();
    const behind = [coalesced.increment('k', expireAt), coalesced.increment('k', expireAt)];
    await nextTurn();
    fail!(new Error('Command timed out'));
    const settled = await Promise.allSettled([first, ...behind]);
    expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    // The waiting calls never made a round trip of their own to a store that was not answering.
    expect(calls).toEqual(['increment k 1']);

    const read = coalesced.get('k');
    await nextTurn();
    const readBehind = coalesced.get('k');
    await nextTurn();
    fail!(new Error('Command timed out'));
    expect((await Promise.allSettled([read, readBehind])).map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toEqual(['increment k 1', 'get k']);

    broken = false;
    expect(await Promise.all([coalesced.increment('k', expireAt), coalesced.increment('k', expireAt)])).toEqual([1, 2]);
    expect(await coalesced.get('k')).toBe(2);
    expect(calls).toEqual(['increment k 1', 'get k', 'increment k 2', 'get k']);
  });

  it('fails the callers of a store that throws instead of rejecting, and keeps working', async () => {
    let broken = true;
    const inner = createMemoryCounterStore();
    const throwing: CounterStore = {
      increment: (key, expireAt, by) => {
        if (broken) throw new Error('thrown, not rejected');
        return inner.increment(key, expireAt, by);
      },
      get: (key) => {
        if (broken) throw new Error('thrown, not rejected');
        return inner.get(key);
      },
      ping: () => inner.ping(),
      close: () => inner.close(),
    };
    const coalesced = coalesceCounterStore(throwing);
    await expect(coalesced.increment('k', inAMinute())).rejects.toThrow('thrown, not rejected');
    await expect(coalesced.get('k')).rejects.toThrow('thrown, not rejected');
    broken = false;
    expect(await coalesced.increment('k', inAMinute())).toBe(1);
  });

  it('refuses a fractional increment on its own, without failing the batch it would have joined', async () => {
    const { store } = recordingStore();
    const coalesced = coalesceCounterStore(store);
    const good = coalesced.increment('k', inAMinute());
    await expect(coalesced.increment('k', inAMinute(), 1.5)).rejects.toThrow(RangeError);
    expect(await good).toBe(1);
  });

  it('fails every caller of a failed round trip, and the quota falls back per call with distinct counts', async () => {
    const { store, calls, setDown } = recordingStore();
    const coalesced = coalesceCounterStore(store);
    setDown(true);
    const failed = await Promise.allSettled([coalesced.increment('k', inAMinute()), coalesced.increment('k', inAMinute())]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toEqual(['increment k 2']);

    // Through the call counter, as the API uses it: the outage turns into per-process counting.
    const log = createMemoryLogger();
    const counter = createCallCounter({ store: coalesced, log, retryIntervalMs: 0 });
    const account = { accountId: 'acc', limit: 3 };
    const tallies = await Promise.all(Array.from({ length: 5 }, () => counter.count(account)));
    expect(tallies.map((t) => t.used).toSorted()).toEqual([1, 2, 3, 4, 5]);
    expect(tallies.every((t) => t.source === 'process')).toBe(true);
    expect(log.lines.filter((entry) => entry.level === 'warn')).toHaveLength(1);

    // Back up: counted in the store again, from where the store stands.
    setDown(false);
    await nextTurn();
    const back = await counter.count(account);
    expect(back.source).toBe('store');
  });

  it('keeps the limit exact under a burst: of 40 concurrent calls with a limit of 10, exactly limit + grace are allowed', async () => {
    const { store, calls } = recordingStore();
    const counter = createCallCounter({ store: coalesceCounterStore(store), log: createMemoryLogger() });
    const tallies = await Promise.all(Array.from({ length: 40 }, () => counter.count({ accountId: 'burst', limit: 10 })));
    const allowed = tallies.filter((t) => t.allowed).length;
    // Exactly as many as 40 separate atomic increments would allow, each with a count of its own.
    expect(allowed).toBe(tallies[0]!.limit! + tallies[0]!.grace);
    expect(tallies.map((t) => t.used).toSorted((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(calls.filter((call) => call.startsWith('increment'))).toHaveLength(1);
  });
});
