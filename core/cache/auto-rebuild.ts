// The spec's "portal setting": with auto_rebuild on, writes queue a rebuild, debounced per project
// so that a burst of edits costs one build. It is a subscriber of committed domain events: any
// event that changes what a project serves (keys, groups, languages, translations), whoever made
// it (API, portal, import, restore), schedules it. In a long-running process the debounce is a
// timer; on Lambda (debounceMs 0) each write queues at once and the builder's sequence check
// coalesces them. The project's setting is read when the timer fires, so it is never stale.
import type { Logger } from '../log.ts';
import type { EventSubscriber } from '../events/event-bus.ts';
import { changesContent } from '../events/domain-event.ts';

export type AutoRebuilder = {
  /** The event subscriber: schedules a rebuild for each project whose content an event changed. */
  subscriber: EventSubscriber;
  /** Fires pending debounced rebuilds now (shutdown, tests). */
  flush(): Promise<void>;
};

export function createAutoRebuilder(options: {
  debounceMs: number;
  /** Whether the project has auto_rebuild on (read when a rebuild would fire). */
  enabled: (projectId: string) => Promise<boolean>;
  request: (projectId: string) => Promise<unknown>;
  log: Logger;
}): AutoRebuilder {
  const timers = new Map<string, NodeJS.Timeout>();
  const fire = async (projectId: string) => {
    timers.delete(projectId);
    try {
      if (await options.enabled(projectId)) await options.request(projectId);
    } catch (error) {
      options.log.error('auto rebuild not queued', { project_id: projectId, error: String(error) });
    }
  };
  const schedule = async (projectId: string) => {
    if (options.debounceMs <= 0) return fire(projectId);
    clearTimeout(timers.get(projectId));
    const timer = setTimeout(() => void fire(projectId), options.debounceMs);
    timer.unref();
    timers.set(projectId, timer);
  };
  return {
    async subscriber(events) {
      const projects = new Set<string>();
      for (const event of events) if (event.projectId && changesContent(event.type)) projects.add(event.projectId);
      await Promise.all([...projects].map(schedule));
    },
    async flush() {
      const pending = [...timers.keys()];
      for (const projectId of pending) clearTimeout(timers.get(projectId));
      await Promise.all(pending.map(fire));
    },
  };
}
