// The connection queues of postgres.js (vendor/postgres-3.4.9-tms.3.tgz, vendor/README.md). Upstream's
// Queue left a hole in its backing array for every `shift` and reset the array only when a `shift`
// emptied it, while `remove` searched the whole array, holes included. A pool under steady load moves
// connections between its open and busy queues with `shift` and `remove`, so the holes piled up for
// the life of the process and every query paid a scan over all the queries before it (30 us of CPU
// per query at start, 96 us after 240,000). These tests count the elements `remove` scans, so they
// fail on upstream's queue without timing anything.
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';

type Queue<T> = { readonly length: number; push(x: T): T; shift(): T | undefined; remove(x: T): T | null };
type QueueFactory = <T>(initial?: T[]) => Queue<T>;

const require = createRequire(import.meta.url);
const esmIndex = new URL(import.meta.resolve('postgres'));

/** Every copy the package ships: ESM (Node), CommonJS, and Cloudflare Workers. */
async function queueCopies(): Promise<[string, QueueFactory][]> {
  const esm = (await import(new URL('./queue.js', esmIndex).href)) as { default: QueueFactory };
  const cf = (await import(new URL('../cf/src/queue.js', esmIndex).href)) as { default: QueueFactory };
  const cjs = require(new URL('../cjs/src/queue.js', esmIndex).pathname) as QueueFactory;
  return [
    ['src', esm.default],
    ['cf/src', cf.default],
    ['cjs/src', cjs],
  ];
}

// Counts the elements Array.prototype.indexOf looks at: the queue's only linear operation.
const originalIndexOf = Array.prototype.indexOf;
let scanned = 0;
function countScans(): void {
  scanned = 0;
  Array.prototype.indexOf = function (this: unknown[], search: unknown, from?: number) {
    const at = originalIndexOf.call(this, search, from);
    const start = from === undefined ? 0 : from < 0 ? Math.max(0, this.length + from) : from;
    scanned += (at === -1 ? this.length : at + 1) - Math.min(start, this.length);
    return at;
  };
}
afterEach(() => {
  Array.prototype.indexOf = originalIndexOf;
});

describe('postgres.js connection queues (vendored patch)', () => {
  it('keeps first-in first-out order, length and remove as upstream', async () => {
    for (const [, Queue] of await queueCopies()) {
      const q = Queue(['a', 'b']);
      q.push('c');
      q.push('d');
      expect(q.length).toBe(4);
      expect(q.shift()).toBe('a');
      expect(q.remove('c')).toBe('c');
      expect(q.remove('a')).toBeNull(); // already shifted out
      expect(q.remove('x')).toBeNull();
      expect(q.length).toBe(2);
      expect([q.shift(), q.shift()]).toEqual(['b', 'd']);
      expect(q.length).toBe(0);
      q.push('e');
      expect([q.length, q.shift(), q.length]).toEqual([1, 'e', 0]);
    }
  });

  it("scans only the live connections, however many queries went through the pool before", async () => {
    for (const [copy, Queue] of await queueCopies()) {
      // A busy queue under steady load: connections are taken from its head (shift, pipelining onto
      // a busy connection) and put back at its tail, and it is emptied by remove as they go idle.
      const busy = Queue<object>();
      const connections = Array.from({ length: 10 }, () => ({}));
      countScans();
      const cycles = 20_000;
      let notEmptied = 0;
      for (let cycle = 0; cycle < cycles; cycle++) {
        for (const c of connections) busy.push(c);
        const taken = busy.shift()!;
        busy.push(taken);
        for (const c of connections) busy.remove(c);
        if (busy.length !== 0) notEmptied++;
      }
      Array.prototype.indexOf = originalIndexOf;
      expect(notEmptied, copy).toBe(0);
      // At most the 11 live entries per remove, 10 removes per cycle; upstream scanned every hole
      // left by the cycles before (about 2 * 10^9 elements here).
      expect(scanned / cycles, copy).toBeLessThanOrEqual(10 * 11);
    }
  });

  it('drops the holes of a queue that never empties (a connection always pipelining)', async () => {
    for (const [copy, Queue] of await queueCopies()) {
      const sent = Queue<number>();
      sent.push(0);
      let outOfOrder = 0;
      countScans();
      for (let i = 1; i <= 100_000; i++) {
        sent.push(i);
        if (sent.shift() !== i - 1) outOfOrder++;
      }
      // remove scans from the live head: one element left, found at once.
      const removed = sent.remove(100_000);
      Array.prototype.indexOf = originalIndexOf;
      expect([outOfOrder, removed], copy).toEqual([0, 100_000]);
      expect(scanned, copy).toBe(1);
      expect(sent.length, copy).toBe(0);
    }
  });
});
