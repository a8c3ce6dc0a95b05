// A process's memo of task progress: the counts of a task's keys and of those done, each with the
// stamp of everything they were counted from (task-rows.ts, progressStampSql). Counting is a pass
// over the task's keys, two primary-key probes each: 50-100 ms for a task of 10,000 keys, paid by
// every read of it, and by a task list once per task on the page. A read sends the stamps it holds;
// the statement counts only the tasks whose stamp has moved since, and reads the stamp in the same
// snapshot as the task, so a read that starts after a write was answered still counts that write.
// It never decides whether a count is current: the database's stamp does, on every read.
//
// By project, then by task number (numbers are never given again, and the stamp names the task's
// id too). Least recently used projects go first; within one, the least recently counted tasks.
//
// Pages of a task's keys (GET /v1/tasks/{number}/keys, each with its status and done flag) are kept
// the same way, under the same stamp: by project, task, filter, cursor and limit, a bounded number
// of pages in all, least recently used first.
import type { TaskKeyList } from './schemas.ts';

export type TaskProgressEntry = { stamp: string; keys_total: number; keys_done: number };

export type TaskProgressMemo = {
  /** The counts held for the project's tasks, by task number: what a read sends as known (a copy, as of now). */
  known(projectId: string): ReadonlyMap<number, TaskProgressEntry>;
  /** Keeps a count the database just made. */
  set(projectId: string, number: number, entry: TaskProgressEntry): void;
  /** A page of a task's keys held under `key` (what list-task-keys.ts names it by), with its stamp. */
  page(key: string): TaskPageEntry | undefined;
  setPage(key: string, entry: TaskPageEntry): void;
  /** Projects, tasks and pages held (tests, diagnostics). */
  size(): { projects: number; tasks: number; pages: number };
};

export type TaskPageEntry = { stamp: string; page: TaskKeyList };

const NONE: ReadonlyMap<number, TaskProgressEntry> = new Map();

export function createTaskProgressMemo(options: { maxProjects: number; maxTasksPerProject: number; maxPages: number }): TaskProgressMemo {
  // Maps iterate in insertion order: re-inserting on use keeps the least recently used first.
  const projects = new Map<string, Map<number, TaskProgressEntry>>();
  let tasks = 0;
  const pages = new Map<string, TaskPageEntry>();
  return {
    known(projectId) {
      const held = projects.get(projectId);
      if (!held) return NONE;
      projects.delete(projectId);
      projects.set(projectId, held);
      // A copy: a count kept while the read is in flight must not change what it was sent as.
      return new Map(held);
    },
    set(projectId, number, entry) {
      let held = projects.get(projectId);
      if (held) projects.delete(projectId);
      else {
        for (const [oldest, gone] of projects) {
          if (projects.size < options.maxProjects) break;
          projects.delete(oldest);
          tasks -= gone.size;
        }
        held = new Map();
      }
      projects.set(projectId, held);
      if (held.delete(number)) tasks--;
      for (const [oldest] of held) {
        if (held.size < options.maxTasksPerProject) break;
        held.delete(oldest);
        tasks--;
      }
      held.set(number, entry);
      tasks++;
    },
    page(key) {
      const entry = pages.get(key);
      if (entry) {
        pages.delete(key);
        pages.set(key, entry);
      }
      return entry;
    },
    setPage(key, entry) {
      pages.delete(key);
      for (const [oldest] of pages) {
        if (pages.size < options.maxPages) break;
        pages.delete(oldest);
      }
      pages.set(key, entry);
    },
    size: () => ({ projects: projects.size, tasks, pages: pages.size }),
  };
}
