// The spec's "portal setting": with auto_rebuild on, writes queue a rebuild, debounced per project
// so that a burst of edits costs one build. In a long-running process the debounce is a timer; on
// Lambda (debounceMs 0) each write queues at once and the builder's sequence check coalesces them.
import type { Logger } from '../log.ts';

export type AutoRebuilder = {
  afterWrite(projectId: string): Promise<void>;
  /** Fires pending debounced rebuilds now (shutdown, tests). */
  flush(): Promise<void>;
};

export function createAutoRebuilder(options: {
  debounceMs: number;
  request: (projectId: string) => Promise<unknown>;
  log: Logger;
}): AutoRebuilder {
  const timers = new Map<string, NodeJS.Timeout>();
  const fire = async (projectId: string) => {
    timers.delete(projectId);
    try {
      await options.request(projectId);
    } catch (error) {
      options.log.error('auto rebuild not queued', { project_id: projectId, error: String(error) });
    }
  };
  return {
    async afterWrite(projectId) {
      if (options.debounceMs <= 0) return fire(projectId);
      clearTimeout(timers.get(projectId));
      const timer = setTimeout(() => void fire(projectId), options.debounceMs);
      timer.unref();
      timers.set(projectId, timer);
    },
    async flush() {
      const pending = [...timers.keys()];
      for (const projectId of pending) clearTimeout(timers.get(projectId));
      await Promise.all(pending.map(fire));
    },
  };
}
