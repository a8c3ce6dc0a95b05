// The answers that become ready in one pass of the event loop leave together, at the pass's end.
//
// Why: on the self-hosted server (npm start) an answer that needs no I/O of its own (a cached read,
// a 304, a refusal, any request with the counters in memory) is written to its socket inside the
// callback that read its request, one by one as the pass goes through the ready sockets. Each write
// to a client that is waiting wakes it (on a VM, an interrupt sent to the other core), and the
// kernel's share of those writes and wakeups was a fifth of the service's thread on the cached rows.
// Written back to back, the first write wakes the client and the others find it awake. The answers
// that one callback makes ready (a database or Redis reply that answers many requests) already
// leave back to back; this does the same for answers that each came from their own socket's read.
// Measured in docs/benchmarks.md (2026-12-06 22:52-01:52).
//
// The pass's first answer goes at once, with every answer the same callback makes ready (they are
// written back to back when its microtasks are done), so a lone request waits for nothing and a
// database reply's answers are not split. Only answers that later callbacks of the same pass make
// ready wait, and only until the pass's end (setImmediate runs right after the poll phase that read
// them). Nothing is reordered on a connection: HTTP/1.1 answers one request at a time per socket.
export function respondTogether<A extends unknown[], R>(fetch: (...args: A) => R | Promise<R>): (...args: A) => Promise<R> {
  /** The held answers of this pass; undefined while no answer has left in it. */
  let held: Array<() => void> | undefined;
  /** True until the microtasks of the callback that made the pass's first answer ready are done. */
  let firstCallback = false;
  const firstCallbackDone = () => (firstCallback = false);
  const release = () => {
    const waiting = held!;
    held = undefined;
    for (const go of waiting) go();
  };
  return async (...args: A) => {
    const response = await fetch(...args);
    if (held === undefined) {
      held = [];
      setImmediate(release);
      firstCallback = true;
      // A tick queued from a microtask runs once the microtask queue is empty: when every answer
      // this callback makes ready has come through here.
      process.nextTick(firstCallbackDone);
      return response;
    }
    if (firstCallback) return response;
    await new Promise<void>((resolve) => held!.push(resolve));
    return response;
  };
}
