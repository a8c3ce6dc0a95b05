// `tms task create|list|show|close`: translation work handed to people (/v1/tasks): some keys to
// translate or to review in one language, for some assignees, by a due day. CI makes them after a
// push ("translate what release 2.3 added"), one task per language as Tolgee does when several
// languages are chosen. Everything the CLI can check (the flags' values, the languages, a --group or
// --tag no key has) is checked before any task is created; a language with nothing left to do is
// said on its line and is no failure, since after a push that changed nothing it is the usual case.
import { randomUUID } from 'node:crypto';
import type { Client } from '../client.ts';
import type { Context } from '../context.ts';
import { CliError, EXIT, usageError } from '../errors.ts';
import { shown } from '../flags.ts';
import { languagesFor, projectTags } from '../project.ts';

const COMMON = 'Common: --api-key KEY (else TMS_API_KEY), --config FILE, --json, --wait-for-quota';

export const TASK_CREATE_HELP = `tms task create --name N [--language L]... [--kind translate|review] [--group G] [--tag T]
                [--missing] [--include-done] [--include-tasked] [--assignee EMAIL]...
                [--due YYYY-MM-DD] [--description D] [--json]

Creates one task per language (POST /v1/tasks): the keys the filter matches (every key without
--group, --tag or --missing), less those already done (translate: a value in review or approved;
review: an approved one; either way not outdated) and those already in an open task of the same
kind and language (so that a task made after each push hands out each new text once). Prints a
line per language:
  #4 Release 2.3 (de): 37 keys to translate, 5 already done left out; assigned to ana@example.com; due 2026-12-31
A language with nothing left to do is said ("nothing to translate in fr: ...") and creates no task:
not a failure (exit 0), as after a push that added nothing. Every flag, language, group and tag is
checked before the first task is created (exit 2, nothing created), and every language's task is
checked by the server first (a dry run: assignees, keys, limits), so a refusal creates nothing
(exit 1, naming the --assignee or the flag).
--name N          the task's name (1 to 200 characters), the same for every language
--language L      a language of the project (repeatable); by default every language of the
                  project except the config's sourceLanguage
--kind K          translate (default) or review
--group G         only the keys of group G;  --tag T  only the keys with tag T (a group or tag no
                  key has is exit 2: a typo would otherwise be "nothing to do")
--missing         only the keys without a value in the task's language
--include-done    keep the keys already done too
--include-tasked  keep the keys already in open tasks too
--assignee EMAIL  a member of the project's account who may do the work (repeatable, at most 20)
--due YYYY-MM-DD  the day it is due
--description D   what the translators should know (at most 2,000 characters)
With --json: {tasks: [...], nothing_to_do: [{language, keys_left_out_done,
keys_left_out_in_tasks}]}, each task as the API answers it (number, name, kind, language, state,
due_date, assignees, keys_total, keys_done, keys_left_out_done, keys_left_out_in_tasks, ...).
${COMMON}`;

export const TASK_LIST_HELP = `tms task list [--state open|done|canceled] [--kind translate|review] [--language L]...
              [--assignee EMAIL] [--json]

Lists the project's tasks, newest first (GET /v1/tasks, every page): number, name, kind, language,
progress (keys done of the task's keys), state, due day and assignees.
--state S         only open, done or canceled tasks (default: all)
--kind K          only translate or review tasks
--language L      only the tasks in these languages (repeatable)
--assignee EMAIL  only the tasks assigned to this member
With --json: {tasks: [...], count}, each task as the API answers it.
${COMMON}`;

export const TASK_SHOW_HELP = `tms task show <number> [--json]

One task (GET /v1/tasks/{number}): its name, kind, language, state, progress, due day, assignees,
description, who created and closed it, and the first 20 of its keys still to do with their
values' status. A number no task of the project has is exit 2.
With --json: the task as the API answers it, and keys_to_do: those first keys (in name order).
${COMMON}`;

export const TASK_CLOSE_HELP = `tms task close <number> [--cancel] [--json]

Closes a task (PATCH /v1/tasks/{number}): done, which the server allows only once every key is done
(else exit 1 with its message: "Task #4 is not done: 3 of its 40 keys are still to translate"), or
with --cancel canceled, whatever is left. A task already so closed is said so (exit 0). A number no
task of the project has is exit 2.
--cancel          close it as canceled, not done
With --json: the task as the API answers it.
${COMMON}`;

export const TASK_HELP = `tms task: translation work for people: keys to translate or review in one language

  tms task create --name N [--language L]...   a task per language over the keys still to do
                                               (--group, --tag, --missing; --assignee, --due)
  tms task list                                the project's tasks and their progress
  tms task show <number>                       one task, and its keys still to do
  tms task close <number> [--cancel]           mark it done (every key done), or canceled

${TASK_CREATE_HELP}

${TASK_LIST_HELP}

${TASK_SHOW_HELP}

${TASK_CLOSE_HELP}`;

/** The server's limits (core/tasks/schemas.ts, core/validation.ts). */
const NAME_MAX_CHARS = 200;
const DESCRIPTION_MAX_CHARS = 2_000;
const ASSIGNEES_MAX = 20;
const EMAIL_MAX = 254;
/** The keys shown by `show` as still to do. */
const KEYS_SHOWN = 20;
/**
 * The server's email rule (valibot's email(), which core/users/schemas.ts uses), after its trim and
 * lowercase: an address the server would refuse is refused here, before any task is created.
 */
const EMAIL = /^[\w+-]+(?:\.[\w+-]+)*@[\da-zA-Z]+(?:[.-][\da-zA-Z]+)*\.[a-zA-Z]{2,}$/u;
const KINDS = ['translate', 'review'] as const;
const STATES = ['open', 'done', 'canceled'] as const;
type Kind = (typeof KINDS)[number];
type State = (typeof STATES)[number];

type Person = { type: string; id: string | null; name: string | null };
/** A task as the API answers it (core/tasks/schemas.ts, Task). */
export type Task = {
  number: number;
  name: string;
  description: string;
  kind: Kind;
  language: string;
  state: State;
  due_date: string | null;
  assignees: { user_id: string; email: string }[];
  keys_total: number;
  keys_done: number;
  created_at: string;
  created_by: Person;
  updated_at: string;
  closed_at: string | null;
  closed_by: Person | null;
} & Record<string, unknown>;
/** The API's answer: the task, and how many matching keys it left out as done or as in open tasks. */
type CreatedTask = Task & { keys_left_out_done: number; keys_left_out_in_tasks: number };
type TaskKey = { key_id: string; key: string; group_name: string; status: 'draft' | 'review' | 'approved' | null; outdated: boolean; done: boolean };
type Issue = { loc?: unknown; msg?: unknown };

/** What a task command was asked, checked before the config is read and any request. */
export type TaskRequest =
  | {
      command: 'create';
      name: string;
      description?: string;
      kind: Kind;
      languages?: string[];
      group?: string;
      tag?: string;
      missing: boolean;
      includeDone: boolean;
      includeTasked: boolean;
      assignees: string[];
      due?: string;
    }
  | { command: 'list'; state?: State; kind?: Kind; languages?: string[]; assignee?: string }
  | { command: 'show'; number: number }
  | { command: 'close'; number: number; cancel: boolean };

type Flags = {
  name?: string;
  description?: string;
  kind?: string;
  language?: string[];
  group?: string;
  tag?: string;
  missing?: boolean;
  'include-done'?: boolean;
  'include-tasked'?: boolean;
  assignee?: string | string[];
  due?: string;
  state?: string;
  cancel?: boolean;
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const chars = (s: string) => [...s].length;
const oneOf = <T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined => {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) throw usageError(`--${flag} ${shown(value)}: ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`);
  return value as T;
};

/** An email as the server reads it (trimmed, in lower case), or exit 2 naming it. */
function email(value: string): string {
  const address = value.trim().toLowerCase();
  if (address === '' || chars(address) > EMAIL_MAX || !EMAIL.test(address)) throw usageError(`--assignee ${shown(value)}: an email address (a member of the project's account: ana@example.com)`);
  return address;
}

/** A calendar day, YYYY-MM-DD, that exists, as the server takes it (2000-01-01 to 9999-12-31). */
function day(value: string): string {
  const d = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : null;
  if (d === null || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value || value < '2000-01-01') {
    throw usageError(`--due ${shown(value)}: a day of the calendar as YYYY-MM-DD (2026-12-31)`);
  }
  return value;
}

/** A task number as `tms task list` shows it: 4, or #4 (quoted: a shell reads a bare #4 as a comment). */
function taskNumber(command: string, positionals: string[]): number {
  if (positionals.length === 0) throw usageError(`name the task: tms task ${command} <number> (tms task list shows the numbers)`);
  if (positionals.length > 1) throw usageError(`one task, not ${positionals.length} (${positionals.map(shown).join(', ')}): tms task ${command} <number>`);
  const value = positionals[0]!;
  if (!/^#?[1-9]\d{0,8}$/.test(value)) throw usageError(`${shown(value)}: not a task number (4, as tms task list shows #4)`);
  return Number(value.replace('#', ''));
}

/** The arguments of `tms task <command>`, checked: a value the server would refuse is exit 2 here. */
export function taskRequest(command: 'create' | 'list' | 'show' | 'close', positionals: string[], flags: Flags): TaskRequest {
  if (command === 'show') return { command, number: taskNumber(command, positionals) };
  if (command === 'close') return { command, number: taskNumber(command, positionals), cancel: Boolean(flags.cancel) };
  if (command === 'list') {
    const state = oneOf('state', flags.state, STATES);
    const kind = oneOf('kind', flags.kind, KINDS);
    const assignee = flags.assignee === undefined ? undefined : email(flags.assignee as string);
    return { command, ...(state ? { state } : {}), ...(kind ? { kind } : {}), ...(flags.language ? { languages: flags.language } : {}), ...(assignee ? { assignee } : {}) };
  }
  if (flags.name === undefined) throw usageError('name the task: tms task create --name "Release 2.3" (the same name for each language\'s task)');
  const name = flags.name.trim();
  if (name === '') throw usageError('--name is empty: give the task a name');
  if (!name.isWellFormed() || /[\u0000-\u001f\u007f]/.test(name)) throw usageError(`--name ${shown(flags.name)}: a name has no control characters (no line breaks)`);
  if (chars(name) > NAME_MAX_CHARS) throw usageError(`--name: a name is at most ${NAME_MAX_CHARS} characters (this one is ${chars(name)})`);
  const description = flags.description;
  if (description !== undefined) {
    if (!description.isWellFormed() || description.includes('\u0000')) throw usageError('--description: no NUL characters or unpaired surrogates');
    if (chars(description) > DESCRIPTION_MAX_CHARS) throw usageError(`--description: at most ${DESCRIPTION_MAX_CHARS.toLocaleString('en-US')} characters (this one is ${chars(description).toLocaleString('en-US')})`);
  }
  if (flags.group !== undefined && flags.group === '') throw usageError('--group is empty: name a group, or leave the flag out for every group');
  const assignees = [...new Set(((flags.assignee as string[] | undefined) ?? []).map(email))];
  if (assignees.length > ASSIGNEES_MAX) throw usageError(`--assignee names ${assignees.length} people: a task has at most ${ASSIGNEES_MAX}`);
  const due = flags.due === undefined ? undefined : day(flags.due);
  return {
    command,
    name,
    ...(description?.trim() ? { description: description.trim() } : {}),
    kind: oneOf('kind', flags.kind, KINDS) ?? 'translate',
    ...(flags.language ? { languages: flags.language } : {}),
    ...(flags.group !== undefined ? { group: flags.group.normalize('NFC') } : {}),
    ...(flags.tag !== undefined ? { tag: flags.tag } : {}),
    missing: Boolean(flags.missing),
    includeDone: Boolean(flags['include-done']),
    includeTasked: Boolean(flags['include-tasked']),
    assignees,
    ...(due ? { due } : {}),
  };
}

export async function task(ctx: Context, client: Client, request: TaskRequest, sourceLanguage: string): Promise<number> {
  if (request.command === 'create') return await create(ctx, client, request, sourceLanguage);
  if (request.command === 'list') return await list(ctx, client, request);
  if (request.command === 'show') return await show(ctx, client, request.number);
  return await close(ctx, client, request.number, request.cancel);
}

async function detailOf(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return (JSON.parse(text) as { detail?: unknown }).detail ?? text;
  } catch {
    return text;
  }
}

const issuesOf = (detail: unknown): Issue[] => (Array.isArray(detail) ? (detail as Issue[]) : [{ loc: [], msg: typeof detail === 'string' ? detail : JSON.stringify(detail) }]);
const locOf = (issue: Issue) => (Array.isArray(issue.loc) ? (issue.loc as unknown[]) : []);
const msgOf = (issue: Issue) => (typeof issue.msg === 'string' ? issue.msg : JSON.stringify(issue.msg));

/**
 * The server's "nothing to do" (core/tasks/task-keys.ts): no key matches, or every match is left out
 * as already done or as in an open task of this kind and language. Its counts, and its reason in the
 * CLI's words (the API's include_done is --include-done here).
 */
function nothingToDo(issues: Issue[]): { keys_left_out_done: number; keys_left_out_in_tasks: number; why: string } | undefined {
  const loc = issues.length === 1 ? locOf(issues[0]!) : [];
  if (loc.length !== 2 || loc[0] !== 'body' || (loc[1] !== 'filter' && loc[1] !== 'key_ids')) return undefined;
  const msg = msgOf(issues[0]!);
  if (!/^(no key matches|every matching key is left out)\b/.test(msg)) return undefined;
  const why = msg
    .replace(/: a task needs at least one key$/, '')
    .replaceAll('include_done', '--include-done')
    .replaceAll('include_tasked', '--include-tasked');
  return {
    keys_left_out_done: Number(/(\d+) already done/.exec(msg)?.[1] ?? 0),
    keys_left_out_in_tasks: Number(/(\d+) in open \w+ tasks/.exec(msg)?.[1] ?? 0),
    why,
  };
}

/** One refusal of a create, said with the flag it came from. */
function refusal(issue: Issue, assignees: string[], language: string): string {
  const loc = locOf(issue);
  const msg = msgOf(issue);
  if (loc[0] !== 'body') return `${loc.length ? `${loc.join('.')}: ` : ''}${msg}`;
  if (loc[1] === 'assignees' && typeof loc[2] === 'number' && assignees[loc[2]] !== undefined) return `--assignee ${assignees[loc[2]]}: ${msg}`;
  const keys = 'the keys (--group, --tag, --missing)';
  const flag: Record<string, string> = { name: '--name', description: '--description', due_date: '--due', language: `--language ${language}`, kind: '--kind', filter: keys, key_ids: keys };
  const named = typeof loc[1] === 'string' ? flag[loc[1]] : undefined;
  return named ? `${named}: ${msg}` : `${loc.length > 1 ? `${loc.slice(1).join('.')}: ` : ''}${msg}`;
}

/** "#4 Release 2.3 (de): 37 keys to translate, 5 already done left out; assigned to ana@example.com; due 2026-12-31" */
function createdLine(t: CreatedTask): string {
  const done = t.keys_done > 0 ? ` (${t.keys_done} already done)` : '';
  const left =
    (t.keys_left_out_done > 0 ? `, ${t.keys_left_out_done} already done left out` : '') +
    (t.keys_left_out_in_tasks > 0 ? `, ${t.keys_left_out_in_tasks} in open tasks left out` : '');
  const assigned = t.assignees.length > 0 ? `; assigned to ${t.assignees.map((a) => a.email).join(', ')}` : '';
  const due = t.due_date ? `; due ${t.due_date}` : '';
  return `#${t.number} ${t.name} (${t.language}): ${plural(t.keys_total, 'key')} to ${t.kind}${done}${left}${assigned}${due}`;
}

async function create(ctx: Context, client: Client, request: Extract<TaskRequest, { command: 'create' }>, sourceLanguage: string) {
  // The languages first: one the project lacks is exit 2 before anything is created.
  let languages = await languagesFor(client, request.languages);
  if (request.languages === undefined) {
    languages = languages.filter((language) => language !== sourceLanguage);
    if (languages.length === 0) throw new CliError(`the project has no language but its source language (${sourceLanguage}, the config's sourceLanguage): add the languages to translate into, or name one with --language`, EXIT.failed);
  }
  // A --group or --tag no key has would match nothing in every language: "nothing to do", exit 0,
  // for what is likely a typo. Refused, naming what there is.
  if (request.group !== undefined) {
    const { groups } = await client.json<{ groups: string[] }>('GET', '/v1/groups');
    if (!groups.some((g) => g.normalize('NFC') === request.group)) {
      throw usageError(`--group ${shown(request.group)}: no key of this project is in this group (${groups.length === 0 ? 'it has none' : `its groups: ${names(groups)}`}); nothing was created`);
    }
  }
  if (request.tag !== undefined) {
    const tags = await projectTags(client);
    if (!tags.includes(request.tag)) throw usageError(`--tag ${shown(request.tag)}: no key of this project has this tag (${tags.length === 0 ? 'it has none' : `its tags: ${names(tags)}`}); nothing was created`);
  }
  // The keys: the filter the flags make (every key when none), --missing in each task's language.
  // Keys already done, and keys already in an open task of this kind and language (someone's work
  // already: CI making a task after each push hands each new text out once), are left out by the
  // server unless --include-done / --include-tasked.
  const body = (language: string, dryRun: boolean) => ({
    name: request.name,
    ...(request.description !== undefined ? { description: request.description } : {}),
    kind: request.kind,
    language,
    filter: {
      ...(request.group !== undefined ? { group: request.group } : {}),
      ...(request.tag !== undefined ? { tag: request.tag } : {}),
      ...(request.missing ? { missing: language } : {}),
    },
    include_done: request.includeDone,
    include_tasked: request.includeTasked,
    assignees: request.assignees,
    ...(request.due !== undefined ? { due_date: request.due } : {}),
    ...(dryRun ? { dry_run: true } : {}),
  });
  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    client.request('POST', '/v1/tasks', {
      body: new TextEncoder().encode(JSON.stringify(payload)),
      headers: { 'Content-Type': 'application/json', ...headers },
      accept: [422],
      ifLost: 'the server may have created it: see tms task list before creating it again',
    });
  const work = request.kind === 'review' ? 'review' : 'translate';

  // Every language's task is checked first (the server's dry run: assignees, keys, limits), so that a
  // refusal in the third language does not come after the first two tasks were made.
  const nothing: NothingToDo[] = [];
  const planned: string[] = [];
  for (const language of languages) {
    const res = await post(body(language, true));
    if (res.status === 200) {
      planned.push(language);
      continue;
    }
    const issues = issuesOf(await detailOf(res));
    const none = nothingToDo(issues);
    if (none) {
      nothing.push({ language, keys_left_out_done: none.keys_left_out_done, keys_left_out_in_tasks: none.keys_left_out_in_tasks });
      const flags = none.why.startsWith('no key matches') && (request.group !== undefined || request.tag !== undefined || request.missing) ? ' (--group, --tag, --missing)' : '';
      ctx.out.line(`nothing to ${work} in ${language}: ${none.why}${flags}; no task created`);
      continue;
    }
    const err = new CliError(`${language}: refused (422); nothing was created:\n${issues.map((issue) => `  ${refusal(issue, request.assignees, language)}`).join('\n')}`, EXIT.failed);
    err.done = { tasks: [], nothing_to_do: nothing };
    throw err;
  }

  const tasks: CreatedTask[] = [];
  try {
    for (const [i, language] of planned.entries()) {
      const rest = planned.slice(i + 1);
      // One token per task and run: the client's retries of a 500 or 503 send it again, so a task
      // the server made before its answer was lost is answered, not made twice.
      const res = await post(body(language, false), { 'Idempotency-Key': randomUUID() }).catch((error: unknown) => {
        if (error instanceof CliError) error.message = `${language}: ${error.message}${sofar(tasks, rest)}`;
        throw error;
      });
      if (res.status === 201) {
        const created = (await res.json()) as CreatedTask;
        tasks.push(created);
        ctx.out.line(createdLine(created));
        continue;
      }
      // Checked a moment ago: only a change meanwhile (a key translated, a member removed) gets here.
      const issues = issuesOf(await detailOf(res));
      throw new CliError(`${language}: refused (422)${sofar(tasks, rest)}:\n${issues.map((issue) => `  ${refusal(issue, request.assignees, language)}`).join('\n')}`, EXIT.failed);
    }
  } catch (error) {
    if (error instanceof CliError) error.done = { tasks, nothing_to_do: nothing };
    throw error;
  }
  ctx.out.result({ tasks, nothing_to_do: nothing });
  return EXIT.ok;
}

type NothingToDo = { language: string; keys_left_out_done: number; keys_left_out_in_tasks: number };

/** What was done before a failure, and what was not tried: what a rerun (with --language) must leave out or do. */
function sofar(tasks: CreatedTask[], rest: string[]): string {
  const rerun = `a rerun leaves ${tasks.length === 1 ? 'its' : 'their'} keys out, as keys in open tasks`;
  const made = tasks.length === 0 ? 'nothing was created' : `${tasks.map((t) => `#${t.number} (${t.language})`).join(', ')} ${tasks.length === 1 ? 'was' : 'were'} created before it (${rerun})`;
  return `; ${made}${rest.length > 0 ? `; not tried: ${rest.join(', ')}` : ''}`;
}

const names = (list: string[]) => `${list.slice(0, 10).join(', ')}${list.length > 10 ? ` and ${list.length - 10} more` : ''}`;

/** Every task a listing's filters match, page after page (each page bounded, whatever the project holds). */
async function allTasks(client: Client, filters: Record<string, string | undefined>): Promise<Task[]> {
  const tasks: Task[] = [];
  const seen = new Set<string>();
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: '200' });
    for (const [k, value] of Object.entries(filters)) if (value !== undefined) query.set(k, value);
    if (cursor) query.set('cursor', cursor);
    const page = await client.json<{ data: Task[]; next_cursor: string | null }>('GET', `/v1/tasks?${query}`);
    tasks.push(...page.data);
    // A cursor seen before would loop forever: an answer the CLI does not expect ends the listing.
    cursor = page.next_cursor && !seen.has(page.next_cursor) ? page.next_cursor : null;
    if (cursor) seen.add(cursor);
  } while (cursor);
  return tasks;
}

/** Rows as columns two spaces apart, each as wide as its widest cell (the last unpadded). */
function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => chars(r[i] ?? ''))));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell + ' '.repeat(widths[i]! - chars(cell)))).join('  ').trimEnd());
}

async function list(ctx: Context, client: Client, request: Extract<TaskRequest, { command: 'list' }>) {
  // A language the project lacks is exit 2 (as for every command), not an empty list.
  const languages = request.languages === undefined ? [undefined] : await languagesFor(client, request.languages);
  const filters = { state: request.state, kind: request.kind, assignee: request.assignee };
  const tasks: Task[] = [];
  // The API filters by one language: one listing each, merged newest first.
  for (const language of languages) tasks.push(...(await allTasks(client, { ...filters, language })));
  tasks.sort((a, b) => b.number - a.number);
  if (tasks.length > 0) {
    const rows = [['#', 'NAME', 'KIND', 'LANGUAGE', 'DONE', 'STATE', 'DUE', 'ASSIGNEES']];
    for (const t of tasks) rows.push([`#${t.number}`, t.name, t.kind, t.language, `${t.keys_done}/${t.keys_total}`, t.state, t.due_date ?? '-', t.assignees.map((a) => a.email).join(', ') || '-']);
    for (const line of table(rows)) ctx.out.line(line);
  }
  ctx.out.line(tasks.length === 0 ? 'no tasks' : plural(tasks.length, 'task'));
  ctx.out.result({ tasks, count: tasks.length });
  return EXIT.ok;
}

/** The task, or exit 2 naming a number no task of the project has. */
async function read(client: Client, number: number): Promise<Task> {
  const res = await client.request('GET', `/v1/tasks/${number}`, { accept: [404] });
  if (res.status === 404) {
    await res.arrayBuffer().catch(() => undefined);
    throw usageError(`no task #${number} in this project (tms task list shows them)`);
  }
  return (await res.json()) as Task;
}

const who = (p: Person | null) => (p === null ? 'someone' : p.type === 'system' ? 'tms' : `${p.name ?? p.id ?? 'someone'}${p.type === 'api_key' ? ' (API key)' : p.type === 'admin' ? ' (admin)' : ''}`);
const when = (iso: string) => iso.replace(/\.\d+Z$/, 'Z').replace('T', ' ');
const percent = (t: Task) => (t.keys_total === 0 ? '' : ` (${Math.floor((100 * t.keys_done) / t.keys_total)}%)`);

async function show(ctx: Context, client: Client, number: number) {
  const t = await read(client, number);
  const left = t.keys_total - t.keys_done;
  const page = left > 0 ? await client.json<{ data: TaskKey[] }>('GET', `/v1/tasks/${number}/keys?done=false&limit=${KEYS_SHOWN}`) : { data: [] };
  ctx.out.line(`#${t.number} ${t.name}`);
  ctx.out.line(`  ${t.kind} ${t.language}, ${t.state}${t.closed_at ? ` ${when(t.closed_at)} by ${who(t.closed_by)}` : ''}`);
  ctx.out.line(`  progress: ${t.keys_done} of ${plural(t.keys_total, 'key')} done${percent(t)}`);
  ctx.out.line(`  due: ${t.due_date ?? '-'}`);
  ctx.out.line(`  assigned to: ${t.assignees.map((a) => a.email).join(', ') || 'nobody'}`);
  ctx.out.line(`  created ${when(t.created_at)} by ${who(t.created_by)}`);
  if (t.description !== '') ctx.out.line(`  description: ${t.description.replace(/\r?\n/g, '\n    ')}`);
  if (left > 0) {
    ctx.out.line(`still to ${t.kind} (${left}):`);
    const rows = page.data.map((k) => [`  ${k.key}`, k.status === null ? 'missing' : `${k.status}${k.outdated ? ', outdated' : ''}`]);
    if (rows.length > 0) for (const line of table(rows)) ctx.out.line(line);
    if (left > page.data.length) ctx.out.line(`  … and ${left - page.data.length} more`);
  }
  ctx.out.result({ ...t, keys_to_do: page.data });
  return EXIT.ok;
}

async function close(ctx: Context, client: Client, number: number, cancel: boolean) {
  const state: State = cancel ? 'canceled' : 'done';
  const before = await read(client, number);
  if (before.state === state) {
    ctx.out.line(`#${number} ${before.name} (${before.language}): already ${state}`);
    ctx.out.result(before);
    return EXIT.ok;
  }
  const res = await client.request('PATCH', `/v1/tasks/${number}`, {
    body: new TextEncoder().encode(JSON.stringify({ state })),
    headers: { 'Content-Type': 'application/json' },
    accept: [404, 409],
  });
  if (res.status === 404) {
    await res.arrayBuffer().catch(() => undefined);
    throw usageError(`no task #${number} in this project (tms task list shows them)`);
  }
  if (res.status === 409) {
    const detail = await detailOf(res);
    const said = (typeof detail === 'string' ? detail : JSON.stringify(detail)).replace(/\.+$/, '');
    const advice = /still to/.test(said) ? `: tms task show ${number} lists them; --cancel closes it anyway` : '';
    throw new CliError(`${said} (409)${advice}`, EXIT.failed);
  }
  const t = (await res.json()) as Task;
  ctx.out.line(`#${t.number} ${t.name} (${t.language}): ${t.state === 'done' ? 'done' : 'canceled'}, ${t.keys_done} of ${plural(t.keys_total, 'key')} done`);
  ctx.out.result(t);
  return EXIT.ok;
}
