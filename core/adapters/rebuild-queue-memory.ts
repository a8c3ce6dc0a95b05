// RebuildQueue for the local server: builds run in this process, with the guarantees the FIFO
// queue gives on AWS plus collapsing. Requirement: a burst of rebuild calls produces at most two
// builds, builds of one project never overlap, and the last build starts after the last call, so
// it sees every write committed before that call.
import { setTimeout as sleep } from 'node:timers/promises';
import { createJsonLogger } from '../log.ts';
import type { Logger } from '../log.ts';
import type { RebuildMessage, RebuildQueue } from '../ports/rebuild-queue.ts';

export type InProcessRebuildQueue = RebuildQueue & {
  /** Resolves once nothing is running or pending (including work sent while waiting). */
  idle(): Promise<void>;
};

export type InProcessRebuildQueueOptions = {
  handle: (message: RebuildMessage) => Promise<void>;
  log?: Logger;
  /**
   * Least time between the starts of two builds of one project (default 100 ms). Collapsing into
   * one pending build only helps while a build runs; when builds are faster than the gaps between
   * calls, this is what keeps a burst at two builds. A lone rebuild still starts at once.
   */
  minIntervalMs?: number;
};

const higher = (a: RebuildMessage, b: RebuildMessage | undefined) => (b && b.seq > a.seq ? b : a);

export function createInProcessRebuildQueue(options: InProcessRebuildQueueOptions): InProcessRebuildQueue {
  const { handle, log = createJsonLogger(), minIntervalMs = 100 } = options;
  // A project is in this map while its build loop runs; `pending` is the one follow-up build that
  // any number of sends during the running build collapse into.
  const projects = new Map<string, { pending: RebuildMessage | undefined }>();
  // One number per project that ever rebuilt in this process: small enough to never prune.
  const lastStarted = new Map<string, number>();
  const loops = new Set<Promise<void>>();
  let closed = false;

  async function buildLoop(first: RebuildMessage, state: { pending: RebuildMessage | undefined }) {
    const { projectId } = first;
    // Start on a later tick: send() must not run build code inside the caller's request.
    await Promise.resolve();
    try {
      for (let message: RebuildMessage | undefined = first; message; ) {
        const wait = (lastStarted.get(projectId) ?? -Infinity) + minIntervalMs - Date.now();
        if (wait > 0) {
          await sleep(wait);
          // Sends made while waiting join this build rather than queueing another.
          message = higher(message, state.pending);
          state.pending = undefined;
        }
        lastStarted.set(projectId, Date.now());
        try {
          await handle(message);
        } catch (err) {
          // The next send retries the build; one failure must not wedge the project.
          log.error('rebuild failed', {
            projectId,
            seq: message.seq,
            error: err instanceof Error ? (err.stack ?? err.message) : String(err),
          });
        }
        message = state.pending;
        state.pending = undefined;
      }
    } finally {
      projects.delete(projectId);
    }
  }

  async function idle() {
    while (loops.size > 0) await Promise.all(loops);
  }

  return {
    async send(message) {
      if (closed) throw new Error('rebuild queue is closed');
      const running = projects.get(message.projectId);
      if (running) {
        // The pending build has not started, so it will see the writes behind every collapsed send.
        running.pending = running.pending ? higher(running.pending, message) : message;
        return;
      }
      const state = { pending: undefined };
      projects.set(message.projectId, state);
      const loop = buildLoop(message, state).finally(() => loops.delete(loop));
      loops.add(loop);
    },
    idle,
    async close() {
      closed = true;
      await idle();
    },
  };
}
