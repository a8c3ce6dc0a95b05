// Live reads of one body, coalesced: requests for the same (project, endpoint, parameters) that
// arrive together share one statement, but never one that was sent before they arrived.
//
// Per key there is at most one statement in flight and one batch waiting behind it. A request that
// finds nothing in flight sends the statement at once. A request that finds one in flight cannot
// use its answer: that statement may have read its snapshot before a write the request already saw
// answered. It joins the waiting batch instead, which sends one statement when the one in flight
// ends, and every request of the batch gets that statement's answer. So each answer comes from a
// statement sent after its request arrived (a read that starts after a write's 2xx sees it), and
// under load one round trip serves every request that queued during the previous one.
// docs/decisions.md, "Live reads stay live, but cheap".

export type LiveFlights = {
  /** `task()`'s result, from a run of it (or of an equal task for the same key) started after this call. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** Keys with a statement in flight (tests, diagnostics). */
  inFlight(): number;
};

type Waiting = { task: () => Promise<unknown>; resolve: (value: unknown) => void; reject: (error: unknown) => void; promise: Promise<unknown> };
type Slot = { waiting: Waiting | undefined };

export function createLiveFlights(): LiveFlights {
  const slots = new Map<string, Slot>();

  const start = (key: string, slot: Slot, task: () => Promise<unknown>): Promise<unknown> => {
    const running = task();
    // Whatever it ends with, the batch that queued meanwhile goes next (or the key is free again).
    const next = () => {
      const waiting = slot.waiting;
      if (!waiting) {
        slots.delete(key);
        return;
      }
      slot.waiting = undefined;
      start(key, slot, waiting.task).then(waiting.resolve, waiting.reject);
    };
    running.then(next, next);
    return running;
  };

  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const slot = slots.get(key);
      if (!slot) {
        const fresh: Slot = { waiting: undefined };
        slots.set(key, fresh);
        return start(key, fresh, task) as Promise<T>;
      }
      if (!slot.waiting) {
        let resolve!: (value: unknown) => void;
        let reject!: (error: unknown) => void;
        const promise = new Promise<unknown>((res, rej) => {
          resolve = res;
          reject = rej;
        });
        slot.waiting = { task, resolve, reject, promise };
      }
      return slot.waiting.promise as Promise<T>;
    },
    inFlight: () => slots.size,
  };
}
