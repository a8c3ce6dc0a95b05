// The order in which a project's batches go (core/db/statement-batches.ts), with a recorded `send`
// instead of a database: when a batch commits, the next one is sent before the first's writes are
// answered (the database works on it while the process answers), and when a batch fails as a
// whole, its writes' retries go before the batch queued behind it (they are older).
import { describe, expect, it } from 'vitest';
import { createStatementBatches } from '../../core/db/statement-batches.ts';
import type { Sql } from '../../core/db/client.ts';

type Item = { project: string; row: string };
type Call = { items: string[]; settle: (rows: string[] | Error) => void };

function recorded() {
  const calls: Call[] = [];
  const sql = {} as Sql;
  const batches = createStatementBatches<Item, string>(sql, {
    send: (_sql, items) =>
      new Promise<string[]>((resolve, reject) => {
        calls.push({ items: items.map((i) => i.row), settle: (rows) => (rows instanceof Error ? reject(rows) : resolve(rows)) });
      }),
    project: (item) => item.project,
    identity: (item) => item.row,
    maxInFlight: 1,
    maxBatch: 64,
  });
  return { calls, sql, batches };
}

describe('the order of a project\'s batches', () => {
  it('the next batch is in flight when the writes of the batch before it are answered', async () => {
    const { calls, sql, batches } = recorded();
    const sentWhenAnswered: number[] = [];
    const first = batches.write(sql, { project: 'p', row: 'a' }).then((row) => (sentWhenAnswered.push(calls.length), row));
    const queued = [batches.write(sql, { project: 'p', row: 'b' }), batches.write(sql, { project: 'p', row: 'c' })];
    expect(calls.map((c) => c.items)).toEqual([['a']]);
    calls[0]!.settle(['A']);
    expect(await first).toBe('A');
    expect(sentWhenAnswered).toEqual([2]);
    expect(calls[1]!.items).toEqual(['b', 'c']);
    calls[1]!.settle(['B', 'C']);
    expect(await Promise.all(queued)).toEqual(['B', 'C']);
    expect(batches.inFlight()).toBe(0);
  });

  it("a batch refused as a whole: its writes' retries are sent before the batch queued behind it", async () => {
    const { calls, sql, batches } = recorded();
    const first = batches.write(sql, { project: 'p', row: 'a' });
    const second = [batches.write(sql, { project: 'p', row: 'b' }), batches.write(sql, { project: 'p', row: 'c' })];
    calls[0]!.settle(['A']);
    await first;
    const third = batches.write(sql, { project: 'p', row: 'd' });
    expect(calls.map((c) => c.items)).toEqual([['a'], ['b', 'c']]);
    calls[1]!.settle(new Error('one bad value'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls.map((c) => c.items)).toEqual([['a'], ['b', 'c'], ['b'], ['c'], ['d']]);
    calls[2]!.settle(['B']);
    calls[3]!.settle(new Error('c is bad'));
    calls[4]!.settle(['D']);
    expect(await second[0]).toBe('B');
    await expect(second[1]).rejects.toThrow('c is bad');
    expect(await third).toBe('D');
  });
});
