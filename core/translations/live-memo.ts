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

/** One entry in the recency list: `older` toward the least recently used end, `newer` toward the other. */
type Slot = { key: string; entry: LiveBody; size: number; older: Slot | undefined; newer: Slot | undefined };

export function createLiveMemo(options: { maxBytes: number }): LiveMemo {
  // A map finds the slot; a doubly linked list keeps the order of use, so a hit moves its slot to
  // the newest end with a few pointer writes and leaves the Map alone. Deleting and re-inserting the
  // key on every hit (as this did before) was 9% of a live key read's CPU in a profile, under 1% now
  // (docs/benchmarks.md, 2026-12-04 20:59-21:30).
  // The reorder is skipped when the slot already is the newest: the order is the same either way.
  const slots = new Map<string, Slot>();
  let oldest: Slot | undefined;
  let newest: Slot | undefined;
  let bytes = 0;
  const unlink = (slot: Slot) => {
    if (slot.older) slot.older.newer = slot.newer;
    else oldest = slot.newer;
    if (slot.newer) slot.newer.older = slot.older;
    else newest = slot.older;
    slot.older = slot.newer = undefined;
  };
  const append = (slot: Slot) => {
    slot.older = newest;
    slot.newer = undefined;
    if (newest) newest.newer = slot;
    else oldest = slot;
    newest = slot;
  };
  const remove = (slot: Slot) => {
    unlink(slot);
    slots.delete(slot.key);
    bytes -= slot.size;
  };
  return {
    get(key) {
      const slot = slots.get(key);
      if (!slot) return undefined;
      if (slot !== newest) {
        unlink(slot);
        append(slot);
      }
      return slot.entry;
    },
    set(key, entry) {
      const old = slots.get(key);
      if (old && BigInt(old.entry.version) > BigInt(entry.version)) return;
      if (old) remove(old);
      const size = cost(key, entry);
      // A body larger than the whole budget is served, not kept.
      if (size > options.maxBytes) return;
      while (oldest && bytes + size > options.maxBytes) remove(oldest);
      const slot: Slot = { key, entry, size, older: undefined, newer: undefined };
      slots.set(key, slot);
      append(slot);
      bytes += size;
    },
    size: () => ({ entries: slots.size, bytes }),
  };
}
