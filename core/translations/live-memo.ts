// The live reads' memo: response bodies by (project, endpoint, parameters), each stored with the
// project's content version it was built for (core/translations/live-read.ts). Least recently used,
// bounded by the bytes of the bodies it holds, one per process. It never decides whether a body is
// current: the database's version does, on every request.

export type LiveBody = {
  /** The project's content version the body was built for (a decimal integer). */
  version: string;
  /** The response body, UTF-8. */
  body: Uint8Array<ArrayBuffer>;
  /** A strong ETag of exactly these bytes, quoted. */
  etag: string;
};

export type LiveMemo = {
  get(key: string): LiveBody | undefined;
  /** Keeps the entry unless one for a later version is already there (a slower concurrent build). */
  set(key: string, entry: LiveBody): void;
  /** Entries and bytes held (tests, diagnostics). */
  size(): { entries: number; bytes: number };
};

/** Per entry on top of the body: the key, the object, the map's slot. An estimate, on purpose. */
const ENTRY_OVERHEAD = 200;

const cost = (key: string, entry: LiveBody) => entry.body.byteLength + key.length * 2 + ENTRY_OVERHEAD;

export function createLiveMemo(options: { maxBytes: number }): LiveMemo {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, LiveBody>();
  let bytes = 0;
  const remove = (key: string) => {
    const old = entries.get(key);
    if (!old) return;
    entries.delete(key);
    bytes -= cost(key, old);
  };
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        entries.set(key, entry);
      }
      return entry;
    },
    set(key, entry) {
      const old = entries.get(key);
      if (old && BigInt(old.version) > BigInt(entry.version)) return;
      remove(key);
      const size = cost(key, entry);
      // A body larger than the whole budget is served, not kept.
      if (size > options.maxBytes) return;
      for (const [oldest] of entries) {
        if (bytes + size <= options.maxBytes) break;
        remove(oldest);
      }
      entries.set(key, entry);
      bytes += size;
    },
    size: () => ({ entries: entries.size, bytes }),
  };
}
