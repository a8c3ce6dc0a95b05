// The serving cache's memory: bounded by bytes, least recently used first out (approximately: an
// entry used since half the map was last used stays), and the in-memory shortcuts the hot reads
// take answer exactly what the async path would, or nothing.
import { describe, expect, it } from 'vitest';
import { createCacheReader } from '../../core/cache/cache-reader.ts';
import { readPointer } from '../../core/cache/read-pointer.ts';
import { requestRebuild } from '../../core/cache/request-rebuild.ts';
import { createMemoryObjectStore } from '../../core/adapters/object-store-memory.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import { silentLogger } from '../../core/log.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { useCore } from '../core/support/core-harness.ts';

/** A memory store that counts reads per key: a read that reaches it was not served from memory. */
function countingStore(): ObjectStore & { reads: Map<string, number> } {
  const inner = createMemoryObjectStore();
  const reads = new Map<string, number>();
  return {
    reads,
    put: (key, body, options) => inner.put(key, body, options),
    get: (key, options) => {
      reads.set(key, (reads.get(key) ?? 0) + 1);
      return inner.get(key, options);
    },
    list: (prefix) => inner.list(prefix),
    delete: (keys) => inner.delete(keys),
  };
}

const KB = 1024;

describe('cache reader memory', () => {
  it('stays within its byte bound and keeps an entry in steady use while others stream through', async () => {
    const objects = countingStore();
    for (let i = 0; i < 40; i++) await objects.put(`f${i}`, new Uint8Array(KB));
    await objects.put('hot', new Uint8Array(KB));
    // Room for 10 files of 1 KB.
    const reader = createCacheReader({ objects, log: silentLogger, maxBytes: 10 * KB });

    for (let i = 0; i < 40; i++) {
      expect(await reader.file('hot')).not.toBeNull();
      expect(await reader.file(`f${i}`)).not.toBeNull();
    }
    expect(objects.reads.get('hot')).toBe(1);

    // The first files were evicted (read again from the store); the last ones are still in memory.
    await reader.file('f0');
    expect(objects.reads.get('f0')).toBe(2);
    await reader.file('f39');
    expect(objects.reads.get('f39')).toBe(1);
  });

  it('evicts the least recently used entry first', async () => {
    const objects = countingStore();
    for (let i = 0; i < 4; i++) await objects.put(`f${i}`, new Uint8Array(KB));
    const reader = createCacheReader({ objects, log: silentLogger, maxBytes: 3 * KB });
    for (const key of ['f0', 'f1', 'f2', 'f0', 'f3']) await reader.file(key);
    // f1 was the least recently used when f3 came in.
    await reader.file('f0');
    await reader.file('f2');
    expect([objects.reads.get('f0'), objects.reads.get('f1'), objects.reads.get('f2')]).toEqual([1, 1, 1]);
    await reader.file('f1');
    expect(objects.reads.get('f1')).toBe(2);
  });

  it('derivedInMemory answers only what is loaded and derived, and forgets what was evicted', async () => {
    const objects = countingStore();
    await objects.put('a', new TextEncoder().encode('{"n":1}'));
    await objects.put('b', new TextEncoder().encode('{"n":2}'));
    const reader = createCacheReader({ objects, log: silentLogger, maxBytes: 10 });
    const parse = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as { n: number };

    expect(reader.derivedInMemory('a')).toBeUndefined();
    await reader.file('a');
    expect(reader.derivedInMemory('a')).toBeUndefined(); // loaded, never derived
    const derived = await reader.derived('a', parse);
    expect(reader.derivedInMemory('a')).toBe(derived);
    await reader.derived('b', parse); // 7 + 7 bytes > 10: a goes
    expect(reader.derivedInMemory('a')).toBeUndefined();
    expect(reader.derivedInMemory<{ n: number }>('b')?.n).toBe(2);
  });
});

describe('currentIndexInMemory', () => {
  let now = Date.parse('2026-06-01T08:00:00.000Z');
  const core = useCore({ clock: { now: () => new Date(now) } });

  it('is the index the async path reads while the pointer is within its TTL, and nothing after it or after invalidate', async () => {
    const p = await core.newProject('team');
    await addLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor });
    await requestRebuild(core.deps, { projectId: p.projectId, actor: p.actor });
    await core.build(core.sent.at(-1)!);
    const buildId = (await readPointer(core.deps.objects, p.projectId))!.build_id;

    const reader = createCacheReader({ objects: core.deps.objects, log: silentLogger, pointerTtlMs: 1000, now: () => now });
    expect(reader.currentIndexInMemory(p.projectId)).toBeUndefined();
    await reader.pointer(p.projectId);
    expect(reader.currentIndexInMemory(p.projectId)).toBeUndefined(); // the index is not loaded yet
    const index = await reader.index(p.projectId, buildId);
    expect(index?.build_id).toBe(buildId);
    expect(reader.currentIndexInMemory(p.projectId)).toBe(index);

    now += 1000; // the pointer must be revalidated now: the shortcut steps aside
    expect(reader.currentIndexInMemory(p.projectId)).toBeUndefined();
    await reader.pointer(p.projectId);
    expect(reader.currentIndexInMemory(p.projectId)).toBe(index);

    reader.invalidate(p.projectId);
    expect(reader.currentIndexInMemory(p.projectId)).toBeUndefined();
  });
});
