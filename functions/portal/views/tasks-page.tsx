// A project's Tasks tab (core/tasks): the translation and review work handed to people, newest first,
// the open tasks by default (or done, canceled, all; or only those assigned to the member), each with
// its kind, language, assignees, due day and progress; and the New task form (tasks.manage: owners,
// developers, reviewers), over the keys chosen in the editor or the keys matching a group or tag. A
// refused form comes back with what was chosen kept and each problem at its field (an assignee who
// may not do the work is named there), as the portal's other forms do.
import type { FC } from 'hono/jsx';
import type { SessionUser } from '../../../core/users/schemas.ts';
import type { ProjectAccess } from '../../../core/users/memberships.ts';
import { TASK_ASSIGNEES_MAX, TASK_DESCRIPTION_MAX, type Task } from '../../../core/tasks/schemas.ts';
import { may, mayEditLanguage } from '../../../core/users/permissions.ts';
import { CsrfField, Layout, Notice } from './layout.tsx';
import { maxUnits } from './max-units.ts';
import { FieldProblem, problemAttrs, type FieldProblems } from './field-problems.tsx';
import { ProjectNav } from './project-nav.tsx';
import { DueDay, KIND_WORDS, newTaskPath, StateBadge, TaskProgress, taskPath, tasksPath, taskTitle } from './task-parts.tsx';

type Cache = { last_rebuilt_at: string | null; ready: boolean; pending?: boolean };

/** The tab's state filter: a task state, or every task. */
export const TASK_STATE_FILTERS = ['open', 'done', 'canceled', 'all'] as const;
export type TaskStateFilter = (typeof TASK_STATE_FILTERS)[number];

/** A member of the account, as an assignee's checkbox names them. */
export type MemberChoice = { email: string; role: string; languages: string[] | null };

/**
 * A group of choices (a fieldset) tied to its problem: described by the message (aria-invalid is for
 * fields that take input, so the red border comes from the class).
 */
export const groupProblem = (problems: FieldProblems | undefined, form: string, name: string) =>
  problems?.[name] === undefined ? {} : { class: 'invalid', 'aria-describedby': `problem-${form}-${name}` };

/** "reviewer; de, fr": a member's role and languages beside their email. */
const roleWords = (m: MemberChoice) => (m.languages && m.languages.length && m.role !== 'owner' && m.role !== 'developer' ? `${m.role}; ${m.languages.join(', ')}` : m.role);

/**
 * Checkboxes of the account's members (their emails are what the core takes), those `chosen` ticked;
 * the problems of the field (a member who may not do the work, named) beside it. A chosen address
 * no longer among the members stays listed, ticked, so the refusal naming it is next to it.
 */
export const AssigneeBoxes: FC<{ form: string; members: MemberChoice[]; chosen: readonly string[]; problems: FieldProblems | undefined }> = ({ form, members, chosen, problems }) => {
  const listed = new Set(members.map((m) => m.email));
  const extra = chosen.filter((e) => !listed.has(e)).map((email) => ({ email, role: 'not a member', languages: null }));
  const all = [...members, ...extra];
  return (
    <fieldset {...groupProblem(problems, form, 'assignees')}>
      <legend>
        Assignees <span class="hint">{`(up to ${TASK_ASSIGNEES_MAX}; optional)`}</span>
      </legend>
      {all.length === 0 ? <p class="hint">The account has no members to assign.</p> : null}
      <div class="assignees">
        {all.map((m) => (
          <label class="check">
            <input type="checkbox" name="assignees" value={m.email} checked={chosen.includes(m.email)} /> <span class="email">{m.email}</span> <span class="hint">{`(${roleWords(m)})`}</span>
          </label>
        ))}
      </div>
      <FieldProblem problems={problems} form={form} name="assignees" />
    </fieldset>
  );
};

export const TasksPage: FC<{
  user: SessionUser;
  csrf: string;
  access: ProjectAccess;
  cache: Cache;
  notice?: string | undefined;
  tasks: Task[];
  next: string | null;
  cursor?: string | undefined;
  state: TaskStateFilter;
  mine: boolean;
  /** Today in UTC (YYYY-MM-DD), for "overdue". */
  today: string;
}> = ({ user, csrf, access, cache, notice, tasks, next, cursor, state, mine, today }) => {
  const here = tasksPath(access.projectId, { state, mine, cursor });
  const filtered = state !== 'open' || mine;
  return (
    <Layout title={`${access.projectName}: tasks`} user={user} csrf={csrf} wide>
      <ProjectNav access={access} current="tasks" csrf={csrf} cache={cache} here={here} />
      {notice ? <Notice kind="ok">{notice}</Notice> : null}
      <div class="row between wrap">
        <h2>Tasks</h2>
        {may(access.role, 'tasks.manage') ? (
          <a class="button" href={newTaskPath(access.projectId)}>
            New task
          </a>
        ) : null}
      </div>
      <p class="hint">
        Keys to translate or to review in one language, for some people, by a day. A key is done when its value is (a translate task) in review or approved, (a
        review task) approved, and not outdated.
      </p>
      <form method="get" action={tasksPath(access.projectId)} class="filters" role="search" aria-label="Filter tasks">
        <label>
          State
          <select name="state">
            {TASK_STATE_FILTERS.map((s) => (
              <option value={s} selected={s === state}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label class="check">
          <input type="checkbox" name="mine" value="1" checked={mine} /> Assigned to me
        </label>
        <button type="submit">Apply</button>
      </form>
      {tasks.length === 0 ? (
        <p class="empty">{cursor ? 'No more tasks.' : filtered ? 'No task matches these filters.' : 'No open tasks.'}</p>
      ) : (
        <div class="table-scroll">
          <table class="table stacked tasks">
            <caption class="sr-only">{`Tasks (${state}${mine ? ', assigned to you' : ''})`}</caption>
            <thead>
              <tr>
                <th scope="col">Task</th>
                <th scope="col">Kind</th>
                <th scope="col">Language</th>
                <th scope="col">Assignees</th>
                <th scope="col">Due</th>
                <th scope="col">Progress</th>
              </tr>
            </thead>
            <tbody>
              {tasks.map((task) => (
                <tr data-task={String(task.number)}>
                  <td>
                    <a href={taskPath(access.projectId, task.number)}>{taskTitle(task)}</a>
                    {task.state === 'open' ? null : (
                      <>
                        {' '}
                        <StateBadge state={task.state} />
                      </>
                    )}
                  </td>
                  <td>{KIND_WORDS[task.kind]}</td>
                  <td>{task.language}</td>
                  <td>{task.assignees.length ? task.assignees.map((a) => a.email).join(', ') : <span class="hint">nobody</span>}</td>
                  <td>
                    <DueDay task={task} today={today} />
                  </td>
                  <td>
                    <TaskProgress task={task} id={`progress-${task.number}`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav class="pager" aria-label="Pages">
        {cursor ? <a href={tasksPath(access.projectId, { state, mine })}>First page</a> : null}
        {next ? (
          <a href={tasksPath(access.projectId, { state, mine, cursor: next })} rel="next">
            Next page
          </a>
        ) : null}
      </nav>
    </Layout>
  );
};

/** A refused New task form: what it sent (kept in its fields) and the problems by field. */
export type NewTaskDraft = {
  name: string;
  description: string;
  kind: string;
  language: string;
  keys: string;
  group: string;
  tag: string;
  includeDone: boolean;
  includeTasked: boolean;
  assignees: string[];
  dueDate: string;
  problems: FieldProblems;
};

/** The New task form's fields: a problem of another is said at the form's top. */
const NEW_TASK_FIELDS = ['name', 'description', 'kind', 'language', 'keys', 'assignees', 'due_date'];

export const NewTaskPage: FC<{
  user: SessionUser;
  csrf: string;
  access: ProjectAccess;
  cache: Cache;
  error?: string | undefined;
  /** The project's languages, and its source language (not chosen by default: nothing to translate into it). */
  languages: string[];
  sourceLanguage: string;
  /** The language to choose first (the editor's first shown language being translated). */
  preferredLanguage?: string | undefined;
  groups: string[];
  tags: { name: string; keys: number }[];
  members: MemberChoice[];
  /** The keys chosen in the editor ("Create a task from the selected keys"), carried as hidden key_ids. */
  chosenKeys: { id: string; key: string }[];
  /** The form's one-time token: sent twice (a reload, a double click), it creates one task. */
  submission: string;
  draft?: NewTaskDraft | undefined;
}> = ({ user, csrf, access, cache, error, languages, sourceLanguage, preferredLanguage, groups, tags, members, chosenKeys, submission, draft }) => {
  const action = `${tasksPath(access.projectId)}`;
  const problems = draft?.problems;
  // A member limited to some languages organizes only those languages' work.
  const choosable = languages.filter((l) => mayEditLanguage(access, l));
  const firstChoice = (preferredLanguage && choosable.includes(preferredLanguage) ? preferredLanguage : undefined) ?? choosable.find((l) => l !== sourceLanguage) ?? choosable[0];
  const language = draft?.language ?? firstChoice;
  const keysFrom = draft?.keys ?? (chosenKeys.length ? 'selected' : 'matching');
  const kind = draft?.kind ?? 'translate';
  const otherProblems = Object.entries(problems ?? {}).filter(([field]) => !NEW_TASK_FIELDS.includes(field));
  return (
    <Layout title={`${access.projectName}: new task`} user={user} csrf={csrf} wide>
      <ProjectNav access={access} current="tasks" csrf={csrf} cache={cache} here={newTaskPath(access.projectId)} />
      {error ? <Notice kind="error">{error}</Notice> : null}
      <p class="crumbs">
        <a href={tasksPath(access.projectId)}>Tasks</a> / New task
      </p>
      <h2>New task</h2>
      <form method="post" action={action} class="card stack" aria-label="New task">
        <CsrfField csrf={csrf} />
        <input type="hidden" name="submission" value={submission} />
        {otherProblems.length ? (
          <p class="field-error" role="alert">
            {otherProblems.map(([, msg]) => msg).join(' ')}
          </p>
        ) : null}
        {draft ? <p class="hint">Nothing was created: what you chose is kept below.</p> : null}
        <label>
          Name
          <input name="name" required maxlength={maxUnits(200)} value={draft?.name ?? ''} {...problemAttrs(problems, 'task', 'name')} />
        </label>
        <FieldProblem problems={problems} form="task" name="name" />
        <label>
          Description <span class="hint">(optional: what the work is for, what to watch out for)</span>
          <textarea name="description" rows={3} maxlength={maxUnits(TASK_DESCRIPTION_MAX)} {...problemAttrs(problems, 'task', 'description')}>
            {draft?.description ?? ''}
          </textarea>
        </label>
        <FieldProblem problems={problems} form="task" name="description" />
        <div class="row wrap">
          <fieldset {...groupProblem(problems, 'task', 'kind')}>
            <legend>Kind</legend>
            <label class="check">
              <input type="radio" name="kind" value="translate" checked={kind === 'translate'} /> Translate <span class="hint">(done: in review or approved)</span>
            </label>
            <label class="check">
              <input type="radio" name="kind" value="review" checked={kind === 'review'} /> Review <span class="hint">(done: approved)</span>
            </label>
          </fieldset>
          <label>
            Language
            <select name="language" required {...problemAttrs(problems, 'task', 'language')}>
              {choosable.map((l) => (
                <option value={l} selected={l === language}>
                  {l === sourceLanguage ? `${l} (source language)` : l}
                </option>
              ))}
            </select>
          </label>
          <label>
            Due day <span class="hint">(optional; UTC)</span>
            <input type="date" name="due_date" value={draft?.dueDate ?? ''} {...problemAttrs(problems, 'task', 'due_date')} />
          </label>
        </div>
        <FieldProblem problems={problems} form="task" name="kind" />
        <FieldProblem problems={problems} form="task" name="language" />
        <FieldProblem problems={problems} form="task" name="due_date" />
        <fieldset {...groupProblem(problems, 'task', 'keys')}>
          <legend>Keys</legend>
          {chosenKeys.length ? (
            <>
              <label class="check">
                <input type="radio" name="keys" value="selected" checked={keysFrom === 'selected'} />{' '}
                {`The ${chosenKeys.length === 1 ? 'key' : `${chosenKeys.length} keys`} selected in the editor`}
              </label>
              <p class="hint mono">
                {chosenKeys.slice(0, 20).map((k) => k.key).join(', ')}
                {chosenKeys.length > 20 ? ` and ${chosenKeys.length - 20} more` : ''}
              </p>
              {chosenKeys.map((k) => (
                <input type="hidden" name="key_ids" value={k.id} />
              ))}
            </>
          ) : null}
          <label class="check">
            <input type="radio" name="keys" value="matching" checked={keysFrom === 'matching'} /> The keys matching:
          </label>
          <div class="row wrap">
            <label>
              Group
              <select name="group">
                <option value="">Every group</option>
                {groups.map((g) => (
                  <option value={g} selected={g === draft?.group}>
                    {g}
                  </option>
                ))}
              </select>
            </label>
            {tags.length ? (
              <label>
                Tag
                <select name="tag">
                  <option value="">Any tag</option>
                  {tags.map((t) => (
                    <option value={t.name} selected={t.name === draft?.tag}>
                      {`${t.name} (${t.keys})`}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
          </div>
          <label class="check">
            <input type="checkbox" name="include_done" value="yes" checked={draft?.includeDone ?? false} /> Include keys already done{' '}
            <span class="hint">(left out otherwise: a task is the work still to do)</span>
          </label>
          <label class="check">
            <input type="checkbox" name="include_tasked" value="yes" checked={draft?.includeTasked ?? false} /> Include keys already in an open task of
            this kind and language <span class="hint">(left out otherwise: no key is handed out twice)</span>
          </label>
          <FieldProblem problems={problems} form="task" name="keys" />
        </fieldset>
        <AssigneeBoxes form="task" members={members} chosen={draft?.assignees ?? []} problems={problems} />
        <div>
          <button type="submit">Create task</button>
        </div>
      </form>
    </Layout>
  );
};
