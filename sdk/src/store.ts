// The last good copy of each file: in memory always, and in a StorageLike when one is given, so a
// fresh start (or an offline one) has something to show. Storage is a best effort: a full or
// unavailable localStorage, or an unreadable file, only costs the copy, never the answer.
import type { StorageLike } from './types.ts';

export type Entry<T> = {
  /** The path it came from (a build URL never changes content). */
  u: string;
  /** Its ETag, for If-None-Match. */
  e: string | null;
  /** Its Last-Modified: the time of the build that served it. */
  m: string | null;
  b: T;
  /** When the server last confirmed it (ms since epoch; memory only, 0 when read from storage). */
  t: number;
};

export type Store = {
  /** The entry, if one is held whose body `valid` accepts (anything else in storage counts as nothing). */
  get<T>(name: string, valid: (body: unknown) => body is T): Promise<Entry<T> | undefined>;
  /** Keeps the entry; `persist` also writes it to storage (awaited, so a fresh client finds it). */
  put<T>(name: string, entry: Entry<T>, persist: boolean): Promise<void>;
};

/** localStorage where there is a document (a browser); never in Node or React Native. */
export function browserStorage(): StorageLike | undefined {
  try {
    if ('document' in globalThis) return (globalThis as { localStorage?: StorageLike }).localStorage;
  } catch {
    // Storage disabled (Safari's private mode, a sandboxed frame): memory only.
  }
  return undefined;
}

export function createStore(storage: StorageLike | undefined, prefix: string): Store {
  const memory = new Map<string, Entry<unknown>>();
  return {
    async get<T>(name: string, valid: (body: unknown) => body is T) {
      let entry = memory.get(name) as Entry<T> | undefined;
      if (!entry && storage) {
        try {
          const stored = JSON.parse((await storage.getItem(prefix + name)) ?? 'null') as Entry<unknown> | null;
          // Valid JSON of another shape ({}, null, a string: another app's key, a hand edit) is as
          // corrupt as a torn file: reading its fields would throw on every call, forever.
          if (typeof stored?.u === 'string' && valid(stored.b)) memory.set(name, (entry = { ...stored, b: stored.b, t: 0 }));
        } catch {
          // Unreadable or corrupt: as if nothing were stored.
        }
      }
      return entry;
    },
    async put(name, entry, persist) {
      memory.set(name, entry);
      if (persist && storage) {
        try {
          await storage.setItem(prefix + name, JSON.stringify(entry));
        } catch {
          // Quota exceeded or storage gone: the copy stays in memory.
        }
      }
    },
  };
}

/** A short, stable name for a server and key (FNV-1a), so the key itself is never a storage name. */
export function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}
