// What the Tasks tab, a task's page and the projects page's "My tasks" show alike: a task's address,
// its progress (a <progress> named for the task, and the count in words), its due day (marked
// overdue in words, not by colour alone), and who made or closed it.
import type { FC } from 'hono/jsx';
import type { Task } from '../../../core/tasks/schemas.ts';
import { actorLabel } from './activity-words.ts';
import { P } from './layout.tsx';
import { SEARCH_MAX } from '../../../core/keys/key-filter.ts';

/** The Tasks tab's address, with its filters. */
export function tasksPath(projectId: string, query: { state?: string | undefined; mine?: boolean | undefined; cursor?: string | undefined } = {}): string {
  const q = new URLSearchParams();
  if (query.state && query.state !== 'open') q.set('state', query.state);
  if (query.mine) q.set('mine', '1');
  if (query.cursor) q.set('cursor', query.cursor);
  const s = q.toString();
  return `${P}/projects/${projectId}/tasks${s ? `?${s}` : ''}`;
}

/** A task's page, with its keys' filter and page. */
export function taskPath(projectId: string, number: number, query: { keys?: string | undefined; cursor?: string | undefined } = {}): string {
  const q = new URLSearchParams();
  if (query.keys && query.keys !== 'all') q.set('keys', query.keys);
  if (query.cursor) q.set('cursor', query.cursor);
  const s = q.toString();
  return `${P}/projects/${projectId}/tasks/${number}${s ? `?${s}` : ''}`;
}

export const newTaskPath = (projectId: string) => `${P}/projects/${projectId}/tasks/new`;

/** The editor over a task's keys, showing the project's source language and the task's language. */
export function taskEditorPath(projectId: string, task: Pick<Task, 'number' | 'language'>, sourceLanguage: string, key?: { id: string; name: string }): string {
  const q = new URLSearchParams();
  q.set('task', String(task.number));
  // The editor's search takes at most SEARCH_MAX characters (key names 500): the name's start finds
  // the key among the task's keys, and the anchor opens its value.
  if (key) q.set('q', [...key.name].slice(0, SEARCH_MAX).join('').trim());
  for (const l of sourceLanguage === task.language ? [task.language] : [sourceLanguage, task.language]) q.append('lang', l);
  return `${P}/projects/${projectId}?${q.toString()}${key ? `#v-${key.id}-${task.language}` : ''}`;
}

/** "#3 German for the release". */
export const taskTitle = (task: Pick<Task, 'number' | 'name'>) => `#${task.number} ${task.name}`;

export const KIND_WORDS: Record<Task['kind'], string> = { translate: 'translate', review: 'review' };

/** Today in UTC, YYYY-MM-DD: a due day is a day of the calendar in UTC (core/tasks/schemas.ts). */
export const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** An open task whose due day is before today (UTC). */
export const isOverdue = (task: Pick<Task, 'state' | 'due_date'>, today: string) => task.state === 'open' && task.due_date !== null && task.due_date < today;

/** A stored time as the portal shows times: minutes, UTC. */
export const utcMinute = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;

/** Who made or closed a task, as the activity names them. */
export function personLabel(person: NonNullable<Task['created_by']>): string {
  return actorLabel(
    { actor_type: person.type, actor_id: person.id, actor_email: person.type === 'user' ? person.name : null },
    person.type === 'api_key' && person.id && person.name ? { [person.id]: person.name } : {},
  );
}

/** "12 of 40 done" beside a progress bar named for the task. */
export const TaskProgress: FC<{ task: Pick<Task, 'number' | 'name' | 'keys_done' | 'keys_total'>; id: string }> = ({ task, id }) => (
  <span class="task-progress">
    {/* A task whose keys are all in the trash has none: an empty bar, not a max of 0 (which a browser reads as 1). */}
    <progress id={id} value={String(task.keys_done)} max={String(Math.max(task.keys_total, 1))} aria-label={`Progress of ${taskTitle(task)}`} aria-describedby={`${id}-text`}>
      {`${task.keys_done} of ${task.keys_total}`}
    </progress>{' '}
    <span id={`${id}-text`}>{`${task.keys_done} of ${task.keys_total} done`}</span>
  </span>
);

/** The due day, "overdue" in words when an open task is past it. */
export const DueDay: FC<{ task: Pick<Task, 'state' | 'due_date'>; today: string }> = ({ task, today }) =>
  task.due_date === null ? (
    <span class="hint">no due day</span>
  ) : (
    <>
      <time datetime={task.due_date}>{task.due_date}</time>
      {isOverdue(task, today) ? (
        <>
          {' '}
          <span class="badge warn">overdue</span>
        </>
      ) : null}
    </>
  );

/** A task's state as a badge (the word is the state). */
export const StateBadge: FC<{ state: Task['state'] }> = ({ state }) => <span class={state === 'open' ? 'badge' : 'badge muted'}>{state}</span>;
