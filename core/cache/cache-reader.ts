// The serving side of the cache, one per process. Built files are immutable, so once read they are
// kept in a bounded in-memory LRU and served like static buffers. Only the pointer can change: it is
// trusted for `pointerTtlMs`, then revalidated with a conditional read (a 304 from S3, a stat-sized
// read from disk). A missing pointer is never cached, so the first build shows up at once.
import * as v from 'valibot';
import type { Logger } from '../log.ts';
import { AppError } from '../errors.ts';
import type { GetResult, ObjectStore } from '../ports/object-store.ts';
import { BuildIndex, indexKey, Pointer, pointerKey } from './layout.ts';

export type CacheReader = {
  /** The current pointer, or null before the first completed build. */
  pointer(projectId: string, options?: { fresh?: boolean }): Promise<Pointer | null>;
  /** The build's index, or null when that build is gone (replaced and collected). */
  index(projectId: string, buildId: string): Promise<BuildIndex | null>;
  /** An immutable object's bytes, or null when gone. */
  file(key: string): Promise<Uint8Array | null>;
  /** A derived value of an immutable object (such as its parsed JSON), kept with its bytes. */
  derived<T>(key: string, derive: (bytes: Uint8Array) => T): Promise<T | null>;
  /**
   * The hot path's shortcuts: what the two calls above would answer when it is already in memory
   * (the pointer within its TTL and the index loaded; the object loaded and derived before), or
   * undefined, and the caller takes the async path. A cached read then costs no promise at all.
   */
  currentIndexInMemory(projectId: string): BuildIndex | undefined;
  derivedInMemory<T>(key: string): T | undefined;
  /** Forget the project's pointer (the in-process builder just published). */
  invalidate(projectId: string): void;
};

/** `indexKey`: the pointed build's index object key, made once per pointer rather than per request. */
type PointerEntry = { pointer: Pointer; etag: string; checkedAt: number; indexKey: string };
type FileEntry = { bytes: Uint8Array; size: number; derived?: unknown; touchedAt: number };

export function createCacheReader(options: {
  objects: ObjectStore;
  log: Logger;
  pointerTtlMs?: number;
  maxBytes?: number;
  now?: () => number;
}): CacheReader {
  const { objects, log } = options;
  const ttl = options.pointerTtlMs ?? 1_000;
  const maxBytes = options.maxBytes ?? 128 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const pointers = new Map<string, PointerEntry>();
  const inflight = new Map<string, Promise<Pointer | null>>();
  // Invalidations per project: a revalidation that began before one may have read the pointer the
  // build replaced, so its answer is not remembered (it would hide the new build for a TTL).
  const invalidations = new Map<string, number>();
  const files = new Map<string, FileEntry>();
  // Loads under way: concurrent first reads of one file (every client asks for a new build's file at
  // once) share one store read and one entry, so its bytes are counted once.
  const loading = new Map<string, Promise<FileEntry | null>>();
  let totalBytes = 0;
  // The LRU order is the Map's insertion order. Moving an entry to the recent end on every hit costs
  // a delete and a set per request; an entry moved (or added) fewer than half the map's size of
  // moves ago is in the recent half already, so it stays where it is (approximately LRU: nothing is
  // evicted before half the map has been used after it).
  let clock = 0;
  const touch = (key: string, entry: FileEntry) => {
    if (clock - entry.touchedAt <= files.size >> 1) return;
    files.delete(key);
    files.set(key, entry);
    entry.touchedAt = ++clock;
  };

  const revalidate = async (projectId: string): Promise<Pointer | null> => {
    const known = pointers.get(projectId);
    const generation = invalidations.get(projectId);
    let result;
    try {
      result = await fromStore(objects.get(pointerKey(projectId), known ? { ifNoneMatch: known.etag } : {}));
    } catch (error) {
      // The store is unreachable: keep serving what we know rather than failing every request.
      if (known) {
        log.warn('cache pointer not revalidated: object store unreachable', { project_id: projectId, error: String(error) });
        known.checkedAt = now();
        return known.pointer;
      }
      throw error;
    }
    if (result.kind === 'not-modified' && known) {
      known.checkedAt = now();
      return known.pointer;
    }
    if (result.kind !== 'found') {
      pointers.delete(projectId);
      return null;
    }
    const pointer = v.parse(Pointer, JSON.parse(Buffer.from(result.object.body).toString('utf8')));
    if (invalidations.get(projectId) === generation) {
      pointers.set(projectId, { pointer, etag: result.object.etag, checkedAt: now(), indexKey: indexKey(projectId, pointer.build_id) });
    }
    return pointer;
  };

  const remember = (key: string, entry: FileEntry) => {
    entry.touchedAt = ++clock;
    // A key held already (never expected, with loads shared) is replaced, not counted twice.
    const held = files.get(key);
    if (held) {
      files.delete(key);
      totalBytes -= held.size;
    }
    files.set(key, entry);
    totalBytes += entry.size;
    for (const [oldKey, old] of files) {
      if (totalBytes <= maxBytes || oldKey === key) break;
      files.delete(oldKey);
      totalBytes -= old.size;
    }
  };

  const fetchEntry = async (key: string): Promise<FileEntry | null> => {
    const result = await fromStore(objects.get(key));
    if (result.kind !== 'found') return null;
    const entry = { bytes: result.object.body, size: result.object.body.byteLength, touchedAt: 0 };
    remember(key, entry);
    return entry;
  };

  const load = async (key: string): Promise<FileEntry | null> => {
    const hit = files.get(key);
    if (hit) {
      touch(key, hit);
      return hit;
    }
    // A missing object or a failed read is not kept: the next read asks the store again.
    let pending = loading.get(key);
    if (!pending) {
      pending = fetchEntry(key).finally(() => loading.delete(key));
      loading.set(key, pending);
    }
    return pending;
  };

  return {
    async pointer(projectId, opts = {}) {
      const known = pointers.get(projectId);
      if (known && !opts.fresh && now() - known.checkedAt < ttl) return known.pointer;
      // One revalidation in flight per project, however many requests arrive meanwhile.
      let pending = inflight.get(projectId);
      if (!pending) {
        const started = revalidate(projectId).finally(() => {
          if (inflight.get(projectId) === started) inflight.delete(projectId);
        });
        inflight.set(projectId, started);
        pending = started;
      }
      return pending;
    },
    async index(projectId, buildId) {
      const entry = await load(indexKey(projectId, buildId));
      if (!entry) return null;
      entry.derived ??= v.parse(BuildIndex, JSON.parse(Buffer.from(entry.bytes).toString('utf8')));
      return entry.derived as BuildIndex;
    },
    async file(key) {
      return (await load(key))?.bytes ?? null;
    },
    async derived(key, derive) {
      const entry = await load(key);
      if (!entry) return null;
      entry.derived ??= derive(entry.bytes);
      return entry.derived as ReturnType<typeof derive>;
    },
    currentIndexInMemory(projectId) {
      const known = pointers.get(projectId);
      if (!known || now() - known.checkedAt >= ttl) return undefined;
      const entry = files.get(known.indexKey);
      if (entry?.derived === undefined) return undefined;
      touch(known.indexKey, entry);
      return entry.derived as BuildIndex;
    },
    derivedInMemory<T>(key: string) {
      const entry = files.get(key);
      if (entry?.derived === undefined) return undefined;
      touch(key, entry);
      return entry.derived as T;
    },
    invalidate(projectId) {
      pointers.delete(projectId);
      // A revalidation in flight is neither joined by later reads nor remembered (see revalidate).
      inflight.delete(projectId);
      invalidations.set(projectId, (invalidations.get(projectId) ?? 0) + 1);
    },
  };
}

/**
 * A store that fails (unreachable, a missing bucket, refused credentials) is a dependency failure:
 * 500 with the envelope's "dependency is unavailable", logged as such with the store's error, not
 * an "unhandled error" that reads like a bug in tms.
 */
async function fromStore(pending: Promise<GetResult>): Promise<GetResult> {
  try {
    return await pending;
  } catch (error) {
    throw new AppError('dependency', 'The object store is unavailable', { cause: error });
  }
}
