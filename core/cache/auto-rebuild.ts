// The spec's "portal setting": with auto_rebuild on, writes queue a rebuild, debounced per project
// so that a burst of edits costs one build. It is a subscriber of committed domain events: any
// event that changes what a project serves (keys, groups, languages, translations), whoever made
// it (API, portal, import, restore), schedules it. On Lambda (debounceMs 0) each write queues at
// once and the builder's sequence check coalesces them.
//
// In a long-running process the debounce is a timer, which a kill would lose. So the first write of
// a quiet period also records a hold in the database (rebuild_holds, migration 026), this process's
// own, due after holdMs (ten debounces): the timer replaces it with a request as soon as the writes
// pause; if the process dies first, whichever process runs next builds once the hold has passed.
// The writes of the quiet period made while the hold lasts (as the database counts it) record
// nothing more: a build made early for another reason (another replica's timer, a rebuild asked
// for) leaves the hold in place for them. The hold is also the longest a continuous burst waits for
// a build. The project's setting is read when the hold is made and again when the timer fires (a
// project found off is asked again after holdMs, or at once after a project.updated event of this
// process).
import type { Logger } from '../log.ts';
import type { EventSubscriber } from '../events/event-bus.ts';
import { changesContent, type DomainEvent } from '../events/domain-event.ts';

const changesFallbacks = (event: DomainEvent) =>
  event.type === 'project.updated' && typeof event.after === 'object' && event.after !== null && 'fallbacks' in event.after;

export type AutoRebuilder = {
  /** The event subscriber: schedules a rebuild for each project whose content an event changed. */
  subscriber: EventSubscriber;
  /** Fires pending debounced rebuilds now (shutdown, tests). */
  flush(): Promise<void>;
};

export function createAutoRebuilder(options: {
  debounceMs: number;
  /** Whether the project has auto_rebuild on. */
  enabled: (projectId: string) => Promise<boolean>;
  /** Queues a rebuild due now, in place of this process's hold of the project. */
  request: (projectId: string) => Promise<unknown>;
  /** Records this process's hold of the project, due in holdMs; resolves to the milliseconds it has left. */
  hold: (projectId: string, holdMs: number) => Promise<number>;
  log: Logger;
}): AutoRebuilder {
  const { debounceMs } = options;
  const holdMs = debounceMs * 10;
  // Per project with a quiet period running: its timer, and until when (this process's clock) the
  // durable hold covers its writes.
  const waiting = new Map<string, { timer?: NodeJS.Timeout; heldUntil: number }>();

  const failed = (projectId: string, error: unknown) => options.log.error('auto rebuild not queued', { project_id: projectId, error: String(error) });
  const fire = async (projectId: string) => {
    waiting.delete(projectId);
    try {
      if (await options.enabled(projectId)) await options.request(projectId);
    } catch (error) {
      failed(projectId, error);
    }
  };
  const hold = async (projectId: string, entry: { heldUntil: number }) => {
    const asked = Date.now();
    try {
      if (!(await options.enabled(projectId))) return;
      // Counted from before the call: the database's deadline is no earlier than that, so a write
      // seen here before heldUntil committed before any build that takes the hold.
      entry.heldUntil = asked + (await options.hold(projectId, holdMs));
    } catch (error) {
      // Asked again at the next write.
      entry.heldUntil = 0;
      failed(projectId, error);
    }
  };
  const schedule = async (projectId: string) => {
    if (debounceMs <= 0) return void (await fire(projectId));
    let entry = waiting.get(projectId);
    if (!entry) waiting.set(projectId, (entry = { heldUntil: 0 }));
    clearTimeout(entry.timer);
    const timer = setTimeout(() => void fire(projectId), debounceMs);
    timer.unref();
    entry.timer = timer;
    if (Date.now() >= entry.heldUntil) {
      // Marked first, so that concurrent writes of the project make one hold, not one each. A
      // project found off is not asked again until then either: the timer's check decides.
      entry.heldUntil = Date.now() + holdMs;
      await hold(projectId, entry);
    }
  };
  return {
    async subscriber(events) {
      const projects = new Set<string>();
      for (const event of events) {
        if (!event.projectId) continue;
        if (changesContent(event.type)) projects.add(event.projectId);
        // The setting may have changed: the next write asks again instead of trusting "off".
        else if (event.type === 'project.updated') {
          const entry = waiting.get(event.projectId);
          if (entry) entry.heldUntil = 0;
          // A changed fallbacks setting changes the built files as much as a changed value.
          if (changesFallbacks(event)) projects.add(event.projectId);
        }
      }
      await Promise.all([...projects].map(schedule));
    },
    async flush() {
      const pending = [...waiting.entries()];
      for (const [, entry] of pending) clearTimeout(entry.timer);
      await Promise.all(pending.map(([projectId]) => fire(projectId)));
    },
  };
}
