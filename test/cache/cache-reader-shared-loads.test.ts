// The serving cache counts the bytes it holds. Concurrent first reads of one file (the usual
// traffic right after a build: every client asks for the new file at once) share one store read and
// one entry, so its size is counted once and nothing is evicted for room the cache still has. A
// load that fails or finds nothing is not kept: the next read asks the store again.
import { describe, expect, it } from 'vitest';
import { createCacheReader } from '../../core/cache/cache-reader.ts';
import { createMemoryObjectStore } from '../../core/adapters/object-store-memory.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import { silentLogger } from '../../core/log.ts';

/** A memory store that counts reads per key, and fails the reads of the keys in `failing`. */
function countingStore(): ObjectStore & { reads: Map<string, number>; failing: Set<string> } {
  const inner = createMemoryObjectStore();
  const reads = new Map<string, number>();
  const failing = new Set<string>();
  return {
    reads,
    failing,
    put: (key, body, options) => inner.put(key, body, options),
    get: async (key, options) => {
      reads.set(key, (reads.get(key) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 5));
      if (failing.has(key)) throw new Error('store unreachable');
      return inner.get(key, options);
    },
    list: (prefix) => inner.list(prefix),
    delete: (keys) => inner.delete(keys),
  };
}

const KB = 1024;

describe('cache reader under concurrent first reads', () => {
  it('keeps three 1 KB files in a 4 KB cache after 20 concurrent first reads of one of them (one store read)', async () => {
    const objects = countingStore();
    for (const key of ['a', 'b', 'c']) await objects.put(key, new Uint8Array(KB));
    const reader = createCacheReader({ objects, log: silentLogger, maxBytes: 4 * KB });

    const got = await Promise.all(Array.from({ length: 20 }, () => reader.file('a')));
    expect(new Set(got).size, 'every concurrent reader gets the one loaded buffer').toBe(1);
    expect(objects.reads.get('a'), 'concurrent first reads share one store read').toBe(1);
    await reader.file('b');
    await reader.file('c');
    // 3 KB of files in a 4 KB cache: all three are held, and reading them again costs no store read.
    for (const key of ['a', 'b', 'c']) await reader.file(key);
    expect(objects.reads.get('a'), 'file a was evicted though the cache holds 3 of its 4 KB').toBe(1);
    expect(objects.reads.get('b')).toBe(1);
    expect(objects.reads.get('c')).toBe(1);
  });

  it('a failed shared load fails every waiter, is not kept, and the next read loads again', async () => {
    const objects = countingStore();
    await objects.put('a', new Uint8Array(KB));
    const reader = createCacheReader({ objects, log: silentLogger, maxBytes: 4 * KB });

    objects.failing.add('a');
    const failed = await Promise.allSettled(Array.from({ length: 5 }, () => reader.file('a')));
    expect(failed.every((r) => r.status === 'rejected')).toBe(true);
    expect(objects.reads.get('a')).toBe(1);

    objects.failing.delete('a');
    expect((await reader.file('a'))?.byteLength).toBe(KB);
    expect(objects.reads.get('a'), 'the failed load was forgotten').toBe(2);
    await reader.file('a');
    expect(objects.reads.get('a')).toBe(2);
  });

  it('a missing object is not kept: once written, the next read finds it', async () => {
    const objects = countingStore();
    const reader = createCacheReader({ objects, log: silentLogger, maxBytes: 4 * KB });
    expect(await Promise.all([reader.file('late'), reader.file('late')])).toEqual([null, null]);
    expect(objects.reads.get('late')).toBe(1);
    await objects.put('late', new Uint8Array(KB));
    expect((await reader.file('late'))?.byteLength).toBe(KB);
  });
});
