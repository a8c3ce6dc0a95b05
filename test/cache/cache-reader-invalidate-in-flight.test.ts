// A build made in this process invalidates its reader's pointer, so that the next cached read shows
// it. A revalidation already in flight then (begun by a read a moment before, when the pointer's
// second ran out) has read the pointer the build replaced: its answer must neither be joined by the
// reads that come after the invalidation nor be remembered as the current pointer, which would serve
// the old build for another second after the new one was announced.
import { describe, expect, it } from 'vitest';
import { createCacheReader } from '../../core/cache/cache-reader.ts';
import { pointerKey } from '../../core/cache/layout.ts';
import { createMemoryObjectStore } from '../../core/adapters/object-store-memory.ts';
import type { GetResult, ObjectStore } from '../../core/ports/object-store.ts';
import { silentLogger } from '../../core/log.ts';

const PROJECT = 'p1';
const pointerBody = (buildId: string, seq: number) =>
  new TextEncoder().encode(JSON.stringify({ build_id: buildId, built_at: new Date(0).toISOString(), seq }));

/** A memory store whose next pointer read answers what the store held when it began, once released. */
function storeWithHeldRead(): ObjectStore & { holdNextPointerRead(): { started: Promise<void>; release(): void } } {
  const inner = createMemoryObjectStore();
  let hold: { started: () => void; released: Promise<void> } | undefined;
  return {
    put: (key, body, options) => inner.put(key, body, options),
    list: (prefix) => inner.list(prefix),
    delete: (keys) => inner.delete(keys),
    async get(key, options): Promise<GetResult> {
      const current = hold && key === pointerKey(PROJECT) ? hold : undefined;
      if (!current) return inner.get(key, options);
      hold = undefined;
      const answer = await inner.get(key, options);
      current.started();
      await current.released;
      return answer;
    },
    holdNextPointerRead() {
      let started!: () => void;
      let release!: () => void;
      const startedP = new Promise<void>((resolve) => (started = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      hold = { started, released };
      return { started: startedP, release };
    },
  };
}

describe('cache reader: an invalidation while a revalidation is in flight', () => {
  it('a read after the invalidation shows the new build, then and for the rest of the TTL', async () => {
    let clock = 0;
    const objects = storeWithHeldRead();
    const reader = createCacheReader({ objects, log: silentLogger, pointerTtlMs: 1_000, now: () => clock });
    await objects.put(pointerKey(PROJECT), pointerBody('old', 1));
    expect((await reader.pointer(PROJECT))?.build_id).toBe('old');

    // The TTL runs out; a read begins a revalidation, which reads the old pointer and is held there.
    clock += 1_500;
    const held = objects.holdNextPointerRead();
    const inFlight = reader.pointer(PROJECT);
    await held.started;

    // Meanwhile this process's builder publishes a new build and invalidates.
    await objects.put(pointerKey(PROJECT), pointerBody('new', 2));
    reader.invalidate(PROJECT);

    // A read that starts now shows the new build even while the old revalidation is still held
    // (joining that revalidation, it would wait for it: the timer answers then).
    const after = await Promise.race([reader.pointer(PROJECT), new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 1_000))]);
    expect(after === 'waited' ? after : after?.build_id).toBe('new');

    // The held revalidation answers its own (earlier) read with what it read...
    held.release();
    expect((await inFlight)?.build_id).toBe('old');
    // ...and is not remembered: every read within the TTL still shows the new build.
    expect((await reader.pointer(PROJECT))?.build_id).toBe('new');
    clock += 500;
    expect((await reader.pointer(PROJECT))?.build_id).toBe('new');
  });

  it('a revalidation with no invalidation meanwhile is remembered as before (one store read per TTL)', async () => {
    let clock = 0;
    const inner = createMemoryObjectStore();
    let reads = 0;
    const objects: ObjectStore = { ...inner, get: (key, options) => ((reads += 1), inner.get(key, options)) };
    const reader = createCacheReader({ objects, log: silentLogger, pointerTtlMs: 1_000, now: () => clock });
    await objects.put(pointerKey(PROJECT), pointerBody('b1', 1));
    await Promise.all([reader.pointer(PROJECT), reader.pointer(PROJECT), reader.pointer(PROJECT)]);
    expect(reads).toBe(1);
    clock += 999;
    await reader.pointer(PROJECT);
    expect(reads).toBe(1);
    clock += 2;
    await reader.pointer(PROJECT);
    expect(reads).toBe(2);
  });
});
