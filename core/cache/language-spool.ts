// The hand-over between a build's snapshot and its uploads. The snapshot is a transaction (on the
// embedded database, the one connection every request needs), so it must never wait for the object
// store: it pushes each language here and reads the next at once, while the uploads take languages
// out as fast as the store accepts them. Languages wait in memory up to a budget; past it they are
// written to a temporary file and read back body by body when their turn comes, so a slow store
// holds neither the transaction nor an unbounded amount of memory.
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bodies, LanguageExport } from './export-snapshot.ts';

/** A body in memory, or where it lies in the spool file. */
export type SpooledBody = () => Promise<Uint8Array>;
export type SpooledBodies = { json: SpooledBody; groups: [group: string, body: SpooledBody][] };
export type SpooledLanguage = SpooledBodies & {
  code: string;
  fallback?: { chain: string[]; raw: SpooledBodies; explain: SpooledBodies };
};

/**
 * Waiting languages kept in memory, in bytes of bodies. A language is kept in memory beyond it only
 * when nothing else is (as the build held one language while reading the next before the spool).
 */
export const SPOOL_MEMORY_BYTES = 32 * 1024 * 1024;

export type LanguageSpool = {
  /** The snapshot's side: quick (memory, or a local file), never the object store. Throws once the uploads failed. */
  push(language: LanguageExport): Promise<void>;
  /** No more languages (the snapshot committed, or found the request covered). */
  end(): void;
  /** The uploads' side: the next language, or undefined once ended; rejects once failed. */
  next(): Promise<SpooledLanguage | undefined>;
  /** The uploads are done with a language taken by next(): its memory counts no more. */
  release(language: SpooledLanguage): void;
  /** Either side failed: the other stops at its next push or next(). */
  fail(error: unknown): void;
  /** Removes the spool file, if one was made. After both sides have stopped. */
  close(): Promise<void>;
};

export function createLanguageSpool(options: { memoryBytes?: number } = {}): LanguageSpool {
  const budget = options.memoryBytes ?? SPOOL_MEMORY_BYTES;
  const waiting: SpooledLanguage[] = [];
  const sizes = new WeakMap<SpooledLanguage, number>();
  let held = 0;
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  let file: { dir: string; handle: FileHandle; end: number } | undefined;

  const stopIfFailed = () => {
    if (failure) throw failure.error;
  };
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  const inMemory = (bodies: Bodies): SpooledBodies => ({
    json: async () => bodies.json,
    groups: [...bodies.groups].map(([group, body]) => [group, async () => body]),
  });

  // A whole language in one writev at the end of the file; its bodies are read back one at a time.
  const spooled = async (language: LanguageExport): Promise<SpooledLanguage> => {
    if (!file) {
      const dir = await mkdtemp(join(tmpdir(), 'tms-build-'));
      try {
        file = { dir, handle: await open(join(dir, 'spool'), 'w+'), end: 0 };
      } catch (error) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
    }
    const spool = file;
    const buffers: Uint8Array[] = [];
    const place = (body: Uint8Array): SpooledBody => {
      const offset = spool.end;
      const length = body.byteLength;
      spool.end += length;
      buffers.push(body);
      return () => readAt(spool.handle, offset, length);
    };
    const placeAll = (bodies: Bodies): SpooledBodies => ({
      json: place(bodies.json),
      groups: [...bodies.groups].map(([group, body]) => [group, place(body)]),
    });
    const start = spool.end;
    const out: SpooledLanguage = { code: language.code, ...placeAll(language) };
    if (language.fallback) {
      out.fallback = { chain: language.fallback.chain, raw: placeAll(language.fallback.raw), explain: placeAll(language.fallback.explain) };
    }
    await spool.handle.writev(buffers, start);
    return out;
  };

  return {
    async push(language) {
      stopIfFailed();
      const size = sizeOf(language);
      let entry: SpooledLanguage;
      if (held === 0 || held + size <= budget) {
        entry = { code: language.code, ...inMemory(language) };
        if (language.fallback) {
          entry.fallback = { chain: language.fallback.chain, raw: inMemory(language.fallback.raw), explain: inMemory(language.fallback.explain) };
        }
        held += size;
        sizes.set(entry, size);
      } else {
        entry = await spooled(language);
      }
      stopIfFailed();
      waiting.push(entry);
      notify();
    },
    end() {
      ended = true;
      notify();
    },
    async next() {
      for (;;) {
        stopIfFailed();
        const entry = waiting.shift();
        if (entry) return entry;
        if (ended) return undefined;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    release(language) {
      held -= sizes.get(language) ?? 0;
      sizes.delete(language);
    },
    fail(error) {
      failure ??= { error };
      waiting.length = 0;
      notify();
    },
    async close() {
      const spool = file;
      file = undefined;
      if (!spool) return;
      await spool.handle.close().catch(() => {});
      await rm(spool.dir, { recursive: true, force: true });
    },
  };
}

function sizeOf(language: LanguageExport): number {
  const of = (bodies: Bodies) => {
    let size = bodies.json.byteLength;
    for (const body of bodies.groups.values()) size += body.byteLength;
    return size;
  };
  return of(language) + (language.fallback ? of(language.fallback.raw) + of(language.fallback.explain) : 0);
}

async function readAt(handle: FileHandle, offset: number, length: number): Promise<Uint8Array> {
  const buffer = Buffer.allocUnsafe(length);
  let read = 0;
  while (read < length) {
    const { bytesRead } = await handle.read(buffer, read, length - read, offset + read);
    if (bytesRead === 0) throw new Error('build spool file ended early');
    read += bytesRead;
  }
  return buffer;
}
