// One task's page (core/tasks): what it is (kind, language, state, due day, description, who made and
// closed it, its assignees), its progress counted from the values as they are now, and its keys a
// page at a time (all, to do, done), each with its value's status and linked to that value in the
// editor; "Open in the editor" shows the task's keys with the source language and the task's. Its
// actions: Mark done (tasks.manage, or an assignee), Cancel task, Open again, Delete (asked first),
// and an Edit form (name, description, due day, assignees) that writes only what was changed from
// what the page showed. A refused action comes back here with its message, nothing changed.
import type { FC } from 'hono/jsx';
import type { SessionUser } from '../../../core/users/schemas.ts';
import type { ProjectAccess } from '../../../core/users/memberships.ts';
import { TASK_DESCRIPTION_MAX, type Task, type TaskKey } from '../../../core/tasks/schemas.ts';
import { CsrfField, Layout, Notice } from './layout.tsx';
import { maxUnits } from './max-units.ts';
import { FieldProblem, problemAttrs, type FieldProblems } from './field-problems.tsx';
import { ProjectNav } from './project-nav.tsx';
import { AssigneeBoxes, type MemberChoice } from './tasks-page.tsx';
import { DueDay, personLabel, StateBadge, taskEditorPath, TaskProgress, taskPath, tasksPath, taskTitle, utcMinute } from './task-parts.tsx';

/** The keys' filter of a task's page. */
export const TASK_KEY_FILTERS = ['all', 'todo', 'done'] as const;
export type TaskKeyFilter = (typeof TASK_KEY_FILTERS)[number];
const KEY_FILTER_WORDS: Record<TaskKeyFilter, string> = { all: 'All keys', todo: 'To do', done: 'Done' };

/** A refused Edit form: what it sent (kept in its fields) and the problems by field. */
export type TaskEditDraft = { name: string; description: string; dueDate: string; assignees: string[]; problems: FieldProblems };

/** The Edit form's fields: a problem of another is said at the form's top. */
const EDIT_FIELDS = ['name', 'description', 'due_date', 'assignees'];

export const TaskPage: FC<{
  user: SessionUser;
  csrf: string;
  access: ProjectAccess;
  cache: { last_rebuilt_at: string | null; ready: boolean; pending?: boolean };
  notice?: string | undefined;
  error?: string | undefined;
  task: Task;
  keys: TaskKey[];
  next: string | null;
  cursor?: string | undefined;
  keysFilter: TaskKeyFilter;
  sourceLanguage: string;
  today: string;
  /** tasks.manage over the task's language: edit, cancel, open again, delete. */
  manage: boolean;
  /** Mark done: tasks.manage, or an assignee. */
  markDone: boolean;
  /** The account's members, for the Edit form's assignees (only with `manage`). */
  members: MemberChoice[];
  draft?: TaskEditDraft | undefined;
}> = (props) => {
  const { user, csrf, access, cache, notice, error, task, keys, next, cursor, keysFilter, sourceLanguage, today, manage, markDone, members, draft } = props;
  const path = taskPath(access.projectId, task.number);
  const here = taskPath(access.projectId, task.number, { keys: keysFilter, cursor });
  const problems = draft?.problems;
  const assigned = task.assignees.map((a) => a.email);
  const otherProblems = Object.entries(problems ?? {}).filter(([field]) => !EDIT_FIELDS.includes(field));
  const stateForm = (state: Task['state'], label: string, secondary: boolean, confirm?: string) => (
    <form method="post" action={`${path}/state`} class="inline" {...(confirm ? { 'data-confirm': confirm } : {})}>
      <CsrfField csrf={csrf} />
      <input type="hidden" name="state" value={state} />
      <button type="submit" class={secondary ? 'secondary' : undefined}>
        {label}
      </button>
    </form>
  );
  return (
    <Layout title={`${access.projectName}: task ${taskTitle(task)}`} user={user} csrf={csrf} wide>
      <ProjectNav access={access} current="tasks" csrf={csrf} cache={cache} here={here} />
      {notice ? <Notice kind="ok">{notice}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <p class="crumbs">
        <a href={tasksPath(access.projectId)}>Tasks</a> / {`#${task.number}`}
      </p>
      <h2>
        {taskTitle(task)} <StateBadge state={task.state} />
      </h2>
      <dl class="facts">
        <dt>Number</dt>
        <dd>{`#${task.number}`}</dd>
        <dt>Kind</dt>
        <dd>{task.kind === 'review' ? 'review (a key is done when its value is approved)' : 'translate (a key is done when its value is in review or approved)'}</dd>
        <dt>Language</dt>
        <dd>{task.language}</dd>
        <dt>State</dt>
        <dd>{task.state}</dd>
        <dt>Due</dt>
        <dd>
          <DueDay task={task} today={today} />
        </dd>
        <dt>Assignees</dt>
        <dd>{assigned.length ? assigned.join(', ') : <span class="hint">nobody</span>}</dd>
        <dt>Created</dt>
        <dd>{`${utcMinute(task.created_at)} by ${personLabel(task.created_by)}`}</dd>
        {task.closed_at ? (
          <>
            <dt>{task.state === 'canceled' ? 'Canceled' : 'Marked done'}</dt>
            <dd>{`${utcMinute(task.closed_at)}${task.closed_by ? ` by ${personLabel(task.closed_by)}` : ''}`}</dd>
          </>
        ) : null}
        <dt>Progress</dt>
        <dd>
          <TaskProgress task={task} id="task-progress" />
        </dd>
      </dl>
      {task.description ? <p class="description">{task.description}</p> : null}
      <div class="row wrap actions">
        <a class="button" href={taskEditorPath(access.projectId, task, sourceLanguage)}>
          Open in the editor
        </a>
        {task.state === 'open' && markDone ? stateForm('done', 'Mark done', false) : null}
        {task.state === 'open' && manage ? stateForm('canceled', 'Cancel task', true, `Cancel ${taskTitle(task)}? Its keys and values stay; it can be opened again.`) : null}
        {task.state !== 'open' && manage ? stateForm('open', 'Open again', true) : null}
        {manage ? (
          <form method="post" action={`${path}/delete`} class="inline" data-confirm={`Delete ${taskTitle(task)}? Its keys and values stay; the task cannot be restored.`}>
            <CsrfField csrf={csrf} />
            <button type="submit" class="link danger">
              Delete task
            </button>
          </form>
        ) : null}
      </div>

      {manage ? (
        <details class="card" open={draft !== undefined}>
          <summary>Edit task</summary>
          <form method="post" action={path} class="stack" aria-label={`Edit ${taskTitle(task)}`}>
            <CsrfField csrf={csrf} />
            {/* What the form shows as stored: only the fields changed from these are written. */}
            <input type="hidden" name="name_was" value={task.name} />
            <input type="hidden" name="description_was" value={task.description} />
            <input type="hidden" name="due_date_was" value={task.due_date ?? ''} />
            <input type="hidden" name="assignees_was" value={[...assigned].sort().join(',')} />
            {otherProblems.length ? (
              <p class="field-error" role="alert">
                {otherProblems.map(([, msg]) => msg).join(' ')}
              </p>
            ) : null}
            <label>
              Name
              <input name="name" required maxlength={maxUnits(200)} value={draft?.name ?? task.name} {...problemAttrs(problems, 'edit', 'name')} />
            </label>
            <FieldProblem problems={problems} form="edit" name="name" />
            <label>
              Description
              <textarea name="description" rows={3} maxlength={maxUnits(TASK_DESCRIPTION_MAX)} {...problemAttrs(problems, 'edit', 'description')}>
                {draft?.description ?? task.description}
              </textarea>
            </label>
            <FieldProblem problems={problems} form="edit" name="description" />
            <label>
              Due day <span class="hint">(optional; UTC)</span>
              <input type="date" name="due_date" value={draft?.dueDate ?? task.due_date ?? ''} {...problemAttrs(problems, 'edit', 'due_date')} />
            </label>
            <FieldProblem problems={problems} form="edit" name="due_date" />
            <AssigneeBoxes form="edit" members={members} chosen={draft?.assignees ?? assigned} problems={problems} />
            <div>
              <button type="submit">Save task</button>
            </div>
          </form>
        </details>
      ) : null}

      <h3>Keys</h3>
      <nav class="row wrap" aria-label="Which keys">
        {TASK_KEY_FILTERS.map((f) => (
          <a href={taskPath(access.projectId, task.number, { keys: f })} aria-current={f === keysFilter ? 'page' : undefined} class={f === keysFilter ? 'tab active' : 'tab'}>
            {KEY_FILTER_WORDS[f]}
          </a>
        ))}
      </nav>
      {keys.length === 0 ? (
        <p class="empty">{cursor ? 'No more keys.' : keysFilter === 'done' ? 'No key is done yet.' : keysFilter === 'todo' ? 'Every key is done.' : 'This task has no keys (a key in the trash is left out until restored).'}</p>
      ) : (
        <div class="table-scroll">
          <table class="table stacked">
            <caption class="sr-only">{`Keys of ${taskTitle(task)} (${KEY_FILTER_WORDS[keysFilter].toLowerCase()})`}</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Group</th>
                <th scope="col">{`Status in ${task.language}`}</th>
                <th scope="col">Done</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr>
                  <td>
                    <a class="mono" href={taskEditorPath(access.projectId, task, sourceLanguage, { id: k.key_id, name: k.key })} aria-label={`${k.key} in ${task.language}, in the editor`}>
                      {k.key}
                    </a>
                  </td>
                  <td>{k.group_name}</td>
                  <td>
                    <span class={`status-${k.status ?? 'none'}`}>{k.status ?? 'no value'}</span>
                    {k.outdated ? (
                      <>
                        {' '}
                        <span class="badge warn">outdated</span>
                      </>
                    ) : null}
                  </td>
                  <td>{k.done ? <strong class="status-approved">
                        <span aria-hidden="true">✓ </span>done
                      </strong> : 'to do'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav class="pager" aria-label="Pages of keys">
        {cursor ? <a href={taskPath(access.projectId, task.number, { keys: keysFilter })}>First keys</a> : null}
        {next ? (
          <a href={taskPath(access.projectId, task.number, { keys: keysFilter, cursor: next })} rel="next">
            Next keys
          </a>
        ) : null}
      </nav>
    </Layout>
  );
};
