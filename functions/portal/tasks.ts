// The portal's tasks (core/tasks, the same use-cases as /v1/tasks): the Tasks tab, the New task form,
// a task's page and its forms. Every member of the project sees them (project.view); tasks.manage
// (owners, developers, reviewers; a reviewer limited to some languages for those languages only)
// creates, edits, cancels, opens again and deletes; an assignee marks their own task done without
// it. Each write answers 303 to the page that shows what it did; a refusal shows the page again with
// the message at its field (or at the top) and what was typed kept, and writes nothing (the
// use-cases refuse before writing, in one transaction). The helpers it shares with the other portal
// routes come in `kit` (routes.ts), so that neither file imports the other.
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { FC } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Deps } from '../../core/deps.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/errors.ts';
import { toDomainError } from '../../core/db/errors.ts';
import { may, mayEditLanguage, type Permission } from '../../core/users/permissions.ts';
import type { ProjectAccess } from '../../core/users/memberships.ts';
import { decodeCursor } from '../../core/keys/key-cursor.ts';
import { listGroups } from '../../core/groups/list-groups.ts';
import { listTags } from '../../core/keys/list-tags.ts';
import { listLanguages } from '../../core/languages/list-languages.ts';
import { sourceLanguageOf } from '../../core/portal/editor-page.ts';
import { createTask } from '../../core/tasks/create-task.ts';
import { listTasks } from '../../core/tasks/list-tasks.ts';
import { getTask } from '../../core/tasks/get-task.ts';
import { updateTask } from '../../core/tasks/update-task.ts';
import { deleteTask } from '../../core/tasks/delete-task.ts';
import { listTaskKeys } from '../../core/tasks/list-task-keys.ts';
import { TASK_KEYS_MAX, type Task, type TaskState } from '../../core/tasks/schemas.ts';
import { requireUser } from './session.ts';
import type { PortalEnv } from './portal-env.ts';
import type { Outcome, Place } from './outcomes.ts';
import { fieldProblems, type FieldProblems } from './views/field-problems.tsx';
import { NewTaskPage, TASK_STATE_FILTERS, TasksPage, type MemberChoice, type NewTaskDraft, type TaskStateFilter } from './views/tasks-page.tsx';
import { TASK_KEY_FILTERS, TaskPage, type TaskEditDraft, type TaskKeyFilter } from './views/task-page.tsx';
import { taskPath, tasksPath, taskTitle, utcDay } from './views/task-parts.tsx';

type C = Context<PortalEnv>;

/** What these routes use of routes.ts's helpers (the same functions every other portal route uses). */
export type TasksKit = {
  access(c: C, permission: Permission): Promise<ProjectAccess>;
  page(c: C, node: ReturnType<FC>, status?: ContentfulStatusCode): Response | Promise<Response>;
  createOnce<T>(
    c: C,
    submission: string | undefined,
    kind: 'task',
    input: unknown,
    work: (deps: Deps) => Promise<T>,
    remember: (created: T) => Record<string, string>,
  ): Promise<{ created: T } | { replayed: Record<string, string> }>;
  redirectWithOutcome(c: C, place: Place, path: string, outcome: Outcome): Promise<Response>;
  outcomeFor(c: C, place: Place): Promise<Outcome | undefined>;
  asErrorAnswer(res: Response, error: AppError): Response;
  cacheOf(c: C, projectId: string): Promise<{ last_rebuilt_at: string | null; ready: boolean; pending?: boolean }>;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A task number in an address (#3 is 3), as the API's TaskNumber reads one. */
const NUMBER = /^[1-9]\d{0,8}$/;
/** Tasks a page of the tab lists; keys a page of a task lists. */
const TASKS_PAGE = 50;
const TASK_KEYS_PAGE = 100;
/** Members an assignee list offers (an account of more is rare; the core takes at most 20 a task). */
const MEMBER_CHOICES_MAX = 500;
/** Open tasks the editor's Task filter offers, newest first. */
const TASK_CHOICES_MAX = 200;

const actorOf = (c: C): Actor => ({ type: 'user', id: requireUser(c).id });
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const oneNewline = (text: string) => text.replace(/\r\n?/g, '\n');

/** The task number of the address; anything else is no task of the project (404). */
function numberParam(c: C): number {
  const raw = c.req.param('number') ?? '';
  if (!NUMBER.test(raw)) throw new AppError('not_found', `There is no task ${raw.length > 20 ? 'at this address' : `"${raw}"`} in this project: a task is named by its number (#1, #2, …)`);
  return Number(raw);
}

/** The request's form: one text field, or every value of a repeated one (checkboxes, hidden key ids). */
async function formOf(c: C): Promise<{ text: (name: string) => string; has: (name: string) => boolean; all: (name: string) => string[] }> {
  const body = await c.req.parseBody({ all: true });
  const values = (name: string) => ([] as unknown[]).concat(body[name] ?? []).filter((x): x is string => typeof x === 'string');
  return { text: (name) => values(name)[0] ?? '', has: (name) => values(name).length > 0, all: values };
}

/** The account's members, by email, for the assignees' checkboxes. */
async function memberChoices(deps: Deps, accountId: string): Promise<MemberChoice[]> {
  return deps.sql<MemberChoice[]>`
    select u.email, m.role, m.languages from memberships m join users u on u.id = m.user_id
    where m.account_id = ${accountId} order by u.email limit ${MEMBER_CHOICES_MAX}`;
}

/**
 * The editor's Task filter: the project's open tasks by number and name, newest first (the index on
 * (project, state, number)), without their progress, which the filter does not show; and the task
 * chosen, when it is not open any more.
 */
export async function taskChoices(deps: Pick<Deps, 'sql'>, projectId: string, chosen: number | undefined): Promise<{ number: number; name: string }[]> {
  return deps.sql<{ number: number; name: string }[]>`
    (select number, name from tasks where project_id = ${projectId} and state = 'open' order by number desc limit ${TASK_CHOICES_MAX})
    union
    (select number, name from tasks where project_id = ${projectId} and number = ${chosen ?? 0})
    order by number desc`;
}

/** The live keys of the project among these ids (the editor's selection), in name order. */
async function keysChosen(deps: Deps, projectId: string, ids: string[]): Promise<{ id: string; key: string }[]> {
  const valid = [...new Set(ids.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))].slice(0, TASK_KEYS_MAX);
  if (valid.length === 0) return [];
  return deps.sql<{ id: string; key: string }[]>`
    select id, key from translation_keys where project_id = ${projectId} and deleted_at is null and id = any(${valid}::uuid[]) order by key`;
}

/**
 * A use-case's refusal by the form's fields: its issues at the fields they name (the keys' at
 * "keys", wherever the core says them: key_ids or filter), else its message at the top. Anything but
 * a validation error is the caller's to answer.
 */
function problemsOf(error: AppError): FieldProblems {
  const byField = fieldProblems(error);
  const out: Record<string, string> = {};
  for (const [field, msg] of Object.entries(byField)) {
    const at = field === 'key_ids' || field === 'filter' || field === 'include_done' || field === 'include_tasked' ? 'keys' : field;
    out[at] = out[at] ? `${out[at]}; ${msg}` : msg;
  }
  if (Object.keys(out).length === 0) out.form = error.message;
  return out;
}

/** Whether the member may manage this task: tasks.manage, and (a reviewer limited to some languages) its language. */
const mayManage = (a: ProjectAccess, task: Pick<Task, 'language'>) => may(a.role, 'tasks.manage') && mayEditLanguage(a, task.language);

function assertManage(a: ProjectAccess, task: Pick<Task, 'language'>): void {
  if (!may(a.role, 'tasks.manage')) throw new AppError('forbidden', `Your role (${a.role}) does not allow managing tasks`);
  if (!mayEditLanguage(a, task.language)) throw new AppError('forbidden', `Your membership does not include ${task.language}: its tasks are not yours to manage`);
}

export function taskRoutes(kit: TasksKit) {
  const place = (a: ProjectAccess): Place => ({ project: a.projectId });
  const today = (c: C) => utcDay(c.get('deps').clock.now());

  /** The tab: a page of tasks in a state (open by default), optionally only the member's. */
  async function renderTab(c: C, a: ProjectAccess, notice?: string) {
    const deps = c.get('deps');
    const notices: string[] = notice ? [notice] : [];
    const stateAsked = c.req.query('state');
    const state: TaskStateFilter = stateAsked === undefined || stateAsked === '' ? 'open' : ((TASK_STATE_FILTERS as readonly string[]).includes(stateAsked) ? stateAsked : 'open') as TaskStateFilter;
    if (stateAsked && stateAsked !== state) notices.push('That state is not one of the choices: the open tasks are shown.');
    const cursorAsked = c.req.query('cursor');
    const cursor = cursorAsked && NUMBER.test(cursorAsked) ? cursorAsked : undefined;
    if (cursorAsked && !cursor) notices.push('That page link is not valid any more (or was changed): this is the first page.');
    const mine = c.req.query('mine') === '1';
    const user = requireUser(c);
    const [list, cache] = await Promise.all([
      listTasks(deps, {
        projectId: a.projectId,
        limit: TASKS_PAGE,
        ...(state === 'all' ? {} : { state }),
        ...(mine ? { assignee: user.email } : {}),
        ...(cursor ? { cursor: Number(cursor) } : {}),
      }),
      kit.cacheOf(c, a.projectId),
    ]);
    return kit.page(
      c,
      TasksPage({ user, csrf: c.get('csrf'), access: a, cache, notice: notices.join(' ') || undefined, tasks: list.data, next: list.next_cursor, cursor, state, mine, today: today(c) }),
    );
  }

  /** The New task form: empty, with the editor's chosen keys, or refused (what was sent kept). */
  async function renderNew(c: C, a: ProjectAccess, view: { keyIds: string[]; preferred?: string[]; error?: string; draft?: NewTaskDraft }) {
    const deps = c.get('deps');
    const [languages, sourceLanguage, groups, tags, members, chosenKeys, cache] = await Promise.all([
      listLanguages(deps, { projectId: a.projectId }),
      sourceLanguageOf(deps, a.projectId),
      listGroups(deps, { projectId: a.projectId }),
      listTags(deps, { projectId: a.projectId }),
      memberChoices(deps, a.accountId),
      keysChosen(deps, a.projectId, view.keyIds),
      kit.cacheOf(c, a.projectId),
    ]);
    const codes = languages.languages.map((l) => l.code);
    const preferredLanguage = (view.preferred ?? []).find((l) => codes.includes(l) && l !== sourceLanguage && mayEditLanguage(a, l));
    return kit.page(
      c,
      NewTaskPage({
        user: requireUser(c),
        csrf: c.get('csrf'),
        access: a,
        cache,
        error: view.error,
        languages: codes,
        sourceLanguage,
        preferredLanguage,
        groups: groups.groups,
        tags: tags.tags,
        members,
        chosenKeys,
        submission: randomUUID(),
        draft: view.draft,
      }),
    );
  }

  /** A task's page: its facts, its keys (a page of the filter asked), and a refused form's message. */
  async function renderTask(c: C, a: ProjectAccess, view: { notice?: string | undefined; error?: string | undefined; draft?: TaskEditDraft } = {}) {
    const deps = c.get('deps');
    const number = numberParam(c);
    const task = await getTask(deps, { projectId: a.projectId, number });
    const notices: string[] = view.notice ? [view.notice] : [];
    const keysAsked = c.req.query('keys');
    const keysFilter: TaskKeyFilter = (TASK_KEY_FILTERS as readonly string[]).includes(keysAsked ?? '') ? (keysAsked as TaskKeyFilter) : 'all';
    const cursorAsked = c.req.query('cursor');
    const cursor = cursorAsked && cursorAsked.length <= 4_000 && decodeCursor(cursorAsked) !== null ? cursorAsked : undefined;
    if (cursorAsked && !cursor) notices.push('That page link is not valid any more (or was changed): these are the first keys.');
    const manage = mayManage(a, task);
    const user = requireUser(c);
    const [keys, sourceLanguage, members, cache] = await Promise.all([
      listTaskKeys(deps, { projectId: a.projectId, number, limit: TASK_KEYS_PAGE, ...(keysFilter === 'all' ? {} : { done: keysFilter === 'done' }), ...(cursor ? { cursor } : {}) }),
      sourceLanguageOf(deps, a.projectId),
      manage ? memberChoices(deps, a.accountId) : Promise.resolve([]),
      kit.cacheOf(c, a.projectId),
    ]);
    return kit.page(
      c,
      TaskPage({
        user,
        csrf: c.get('csrf'),
        access: a,
        cache,
        notice: notices.join(' ') || undefined,
        error: view.error,
        task,
        keys: keys.data,
        next: keys.next_cursor,
        cursor,
        keysFilter,
        sourceLanguage,
        today: today(c),
        manage,
        markDone: manage || task.assignees.some((x) => x.user_id === user.id),
        members,
        draft: view.draft,
      }),
    );
  }

  /** The answer to a refused form of a task's page: the page again, with the refusal's status. */
  async function refusedOnTask(c: C, a: ProjectAccess, thrown: unknown, said: string, draft?: TaskEditDraft) {
    const error = toDomainError(thrown);
    if (!(error instanceof AppError) || (error.code !== 'validation' && error.code !== 'conflict')) throw thrown;
    const problems = error.code === 'validation' ? problemsOf(error) : {};
    const message = error.code === 'validation' ? Object.values(problems).join('; ') : error.message;
    return kit.asErrorAnswer(await renderTask(c, a, { error: `${said}: ${message}`, ...(draft ? { draft: { ...draft, problems } } : {}) }), error);
  }

  return (
    new Hono<PortalEnv>()
      .get('/', async (c) => {
        const a = await kit.access(c, 'project.view');
        return renderTab(c, a, (await kit.outcomeFor(c, place(a)))?.notice);
      })
      // The New task form; `key` (repeated): the keys selected in the editor ("Create a task from
      // the selected keys"), `lang`: the languages the editor showed (the first one translated is chosen).
      .get('/new', async (c) => {
        const a = await kit.access(c, 'tasks.manage');
        return renderNew(c, a, { keyIds: c.req.queries('key') ?? [], preferred: c.req.queries('lang') ?? [] });
      })
      // Create: the keys selected in the editor (key_ids) or those matching a group or tag (or every
      // key), the ones already done left out unless asked. Sent once per form (its one-time token,
      // claimed in the creation's own transaction): a reload or a double click creates one task.
      .post('/', async (c) => {
        const a = await kit.access(c, 'tasks.manage');
        const f = await formOf(c);
        const draft: NewTaskDraft = {
          name: f.text('name'),
          description: oneNewline(f.text('description')),
          kind: f.text('kind'),
          language: f.text('language'),
          keys: f.text('keys') === 'selected' ? 'selected' : 'matching',
          group: f.text('group'),
          tag: f.text('tag'),
          includeDone: f.text('include_done') === 'yes',
          includeTasked: f.text('include_tasked') === 'yes',
          assignees: f.all('assignees'),
          dueDate: f.text('due_date').trim(),
          problems: {},
        };
        const keyIds = f.all('key_ids');
        // A member limited to some languages organizes only those languages' work.
        if (draft.language !== '' && !mayEditLanguage(a, draft.language)) {
          throw new AppError('forbidden', `Your membership does not include ${draft.language}: its tasks are not yours to create`);
        }
        const keys =
          draft.keys === 'selected'
            ? { key_ids: keyIds }
            : { filter: { ...(draft.group !== '' ? { group: draft.group } : {}), ...(draft.tag !== '' ? { tag: draft.tag } : {}) } };
        const command = {
          name: draft.name,
          description: draft.description,
          kind: draft.kind as Task['kind'],
          language: draft.language,
          ...keys,
          include_done: draft.includeDone,
          include_tasked: draft.includeTasked,
          assignees: draft.assignees,
          due_date: draft.dueDate === '' ? null : draft.dueDate,
        };
        try {
          if (draft.keys === 'selected' && keyIds.length === 0) {
            throw new AppError('validation', 'No key was selected', { issues: [{ loc: ['keys'], msg: 'No key came with the form: choose the keys matching a group or tag, or select keys in the editor', type: 'missing' }] });
          }
          const once = await kit.createOnce(
            c,
            f.text('submission') || undefined,
            'task',
            { project: a.projectId, ...command },
            (tokenDeps) => createTask(tokenDeps, { projectId: a.projectId, actor: actorOf(c), ...command }),
            (task) => ({ number: String(task.number), name: task.name }),
          );
          if ('replayed' in once) {
            const number = Number(once.replayed.number);
            const path = NUMBER.test(once.replayed.number ?? '') ? taskPath(a.projectId, number) : tasksPath(a.projectId);
            return kit.redirectWithOutcome(c, place(a), path, { notice: `This form was already sent: it created task #${once.replayed.number ?? ''} once, and nothing was created again.` });
          }
          const task = once.created;
          const leftOut =
            (task.keys_left_out_done > 0 ? ` ${count(task.keys_left_out_done, 'key was', 'keys were')} left out as already done.` : '') +
            (task.keys_left_out_in_tasks > 0 ? ` ${count(task.keys_left_out_in_tasks, 'key was', 'keys were')} left out as already in an open ${task.kind} task of ${task.language}.` : '');
          return kit.redirectWithOutcome(c, place(a), taskPath(a.projectId, task.number), {
            notice: `Created the task ${taskTitle(task)} with ${count(task.keys_total, 'key')}.${leftOut}`,
          });
        } catch (thrown) {
          const error = toDomainError(thrown);
          if (!(error instanceof AppError) || error.code !== 'validation') throw thrown;
          const problems = problemsOf(error);
          return kit.asErrorAnswer(
            await renderNew(c, a, { keyIds, error: `Not created: ${Object.values(problems).join('; ')}`, draft: { ...draft, problems } }),
            error,
          );
        }
      })
      .get('/:number', async (c) => {
        const a = await kit.access(c, 'project.view');
        return renderTask(c, a, { notice: (await kit.outcomeFor(c, place(a)))?.notice });
      })
      // Edit: only the fields changed from what the page showed (`*_was`), so a colleague's change to
      // another field since the page was loaded stays; assignees are the whole list shown, ticked.
      .post('/:number', async (c) => {
        const a = await kit.access(c, 'tasks.manage');
        const number = numberParam(c);
        const deps = c.get('deps');
        const task = await getTask(deps, { projectId: a.projectId, number });
        assertManage(a, task);
        const f = await formOf(c);
        const draft: TaskEditDraft = {
          name: f.text('name'),
          description: oneNewline(f.text('description')),
          dueDate: f.text('due_date').trim(),
          assignees: f.all('assignees'),
          problems: {},
        };
        const changed = (field: string, now: string) => f.has(field) && (!f.has(`${field}_was`) || oneNewline(f.text(`${field}_was`)) !== now);
        // The checkboxes send nothing when none is ticked: the list shown (assignees_was, always in the
        // form) says the form had them, so none ticked is "nobody", not "unchanged".
        const assigneesNow = [...new Set(draft.assignees)].sort().join(',');
        const assigneesChanged = f.has('assignees_was') ? f.text('assignees_was') !== assigneesNow : f.has('assignees');
        const changes = {
          ...(changed('name', draft.name) ? { name: draft.name } : {}),
          ...(changed('description', draft.description) ? { description: draft.description } : {}),
          ...(changed('due_date', draft.dueDate) ? { due_date: draft.dueDate === '' ? null : draft.dueDate } : {}),
          ...(assigneesChanged ? { assignees: draft.assignees } : {}),
        };
        const path = taskPath(a.projectId, number);
        if (Object.keys(changes).length === 0) return kit.redirectWithOutcome(c, place(a), path, { notice: `Nothing to save: ${taskTitle(task)} is as it was.` });
        try {
          const saved = await updateTask(deps, { projectId: a.projectId, actor: actorOf(c), number, ...changes });
          return kit.redirectWithOutcome(c, place(a), path, { notice: `Saved ${taskTitle(saved)}.` });
        } catch (thrown) {
          return refusedOnTask(c, a, thrown, 'Not saved', draft);
        }
      })
      // Done (tasks.manage, or an assignee: only this), canceled, open again. Done is refused (409)
      // while a key is still to do: the page says how many, and nothing changed.
      .post('/:number/state', async (c) => {
        const a = await kit.access(c, 'project.view');
        const number = numberParam(c);
        const deps = c.get('deps');
        const task = await getTask(deps, { projectId: a.projectId, number });
        const f = await formOf(c);
        const state = f.text('state');
        if (state !== 'done' && state !== 'canceled' && state !== 'open') {
          throw new AppError('validation', 'Choose Mark done, Cancel task or Open again', { issues: [{ loc: ['state'], msg: 'state must be done, canceled or open', type: 'value_error' }] });
        }
        const assignee = task.assignees.some((x) => x.user_id === requireUser(c).id);
        // An assignee closes their own open task as done; a task a manager canceled stays canceled.
        if (!(state === 'done' && assignee && task.state === 'open')) assertManage(a, task);
        const path = taskPath(a.projectId, number);
        try {
          const saved = await updateTask(deps, { projectId: a.projectId, actor: actorOf(c), number, state: state as TaskState });
          const said: Record<TaskState, string> = { done: `Marked ${taskTitle(saved)} done.`, canceled: `Canceled ${taskTitle(saved)}.`, open: `Opened ${taskTitle(saved)} again.` };
          return kit.redirectWithOutcome(c, place(a), path, { notice: said[state] });
        } catch (thrown) {
          return refusedOnTask(c, a, thrown, state === 'done' ? 'Not marked done' : 'Not changed');
        }
      })
      .post('/:number/delete', async (c) => {
        const a = await kit.access(c, 'tasks.manage');
        const number = numberParam(c);
        const deps = c.get('deps');
        const task = await getTask(deps, { projectId: a.projectId, number });
        assertManage(a, task);
        await deleteTask(deps, { projectId: a.projectId, actor: actorOf(c), number });
        return kit.redirectWithOutcome(c, place(a), tasksPath(a.projectId), { notice: `Deleted the task ${taskTitle(task)}; its keys and values stay.` });
      })
  );
}
