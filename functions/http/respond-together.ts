// The answers that become ready in one pass of the event loop leave together, at the pass's end.
//
// Why: on the self-hosted server (npm start) an answer that needs no I/O of its own (a cached read,
// a 304, a refusal, any request with the counters in memory) is written to its socket inside the
// callback that read its request, one by one as the pass goes through the ready sockets. Each write
// on a quiet peer wakes that peer (on a VM, an interrupt sent to the other core), and the kernel's
// share of those wakeups was a fifth of the service's thread on the cached rows. Written back to
// back, the first write wakes the peer and the others find it awake. The counters in Redis, or a
// database answer, already release their answers together (one round trip answers many); this does
// the same for answers that wait for nothing. Measured in docs/benchmarks.md (2026-12-06 22:52).
//
// The first answer of a pass still goes at once, so a lone request (one client, a quiet server)
// waits for nothing; only the answers that follow it in the same pass wait, and only until the
// pass's end (setImmediate runs right after the poll phase that read them). Nothing is reordered
// on a connection: HTTP/1.1 answers one request at a time per socket, and a later pass's answers
// cannot leave before this pass's, which are released first.
export function respondTogether<A extends unknown[], R>(fetch: (...args: A) => R | Promise<R>): (...args: A) => Promise<R> {
  /** The held answers of this pass; undefined while no answer has left in it. */
  let held: Array<() => void> | undefined;
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
      return response;
    }
    await new Promise<void>((resolve) => held!.push(resolve));
    return response;
  };
}
