// Tasks in the portal (docs/portal.md, "Tasks"), through HTTP as signed-in members: the New task form
// (keys matching a group, or the keys selected in the editor; those already done left out and the
// notice saying so; its one-time token: a reload or a double click creates one task); the Tasks tab
// (open by default, the state filter, Assigned to me, overdue in UTC, progress, pages); a task's page
// (its facts, progress following a value approved in the editor, its keys by done or to do, Open in
// the editor); Mark done refused while a key is to do, then done; an assignee without tasks.manage
// marks their task done but cannot cancel, edit or delete it (403); editing, cancelling, opening
// again, deleting; a reviewer limited to some languages, a translator and another account's user;
// bad input a 4xx at its field with what was chosen kept and nothing written; the editor's Task filter;
// and My tasks on the projects page.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient, PortalResponse } from './support/portal-client.ts';
import { signedInMember } from './support/signed-in-member.ts';
import { bulkFields, decode } from './support/form-fields.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;

let p: TestProject;
let dev: PortalClient;
let reviewer: PortalClient;
let translator: PortalClient;
let reviewerFr: PortalClient;
let translatorFr: PortalClient;
let stranger: PortalClient;
const emails = new Map<PortalClient, string>();
/** Key name -> id. */
const keys: Record<string, string> = {};

const base = (project: TestProject = p) => `/portal/projects/${project.projectId}`;
const tab = (project: TestProject = p) => `${base(project)}/tasks`;
const taskPage = (n: number, project: TestProject = p) => `${tab(project)}/${n}`;

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}
const put = async (key: string, language: string, value: string, status: string, project: TestProject = p) =>
  json(await t.call(project.apiKey, 'PUT', `/v1/keys/${keys[key]}/translations/${language}`, { value, status }));
/** A task through the API (the form has its own tests here): its number. */
const apiTask = async (body: Record<string, unknown>, project: TestProject = p): Promise<number> =>
  (await json(await t.call(project.apiKey, 'POST', '/v1/tasks', { kind: 'translate', language: 'de', include_done: true, include_tasked: true, ...body }))).number;
const stored = async (n: number, project: TestProject = p) => json(await t.call(project.apiKey, 'GET', `/v1/tasks/${n}`));
/** What a refused form must leave as it was: the project's tasks, their keys and assignees, and the task events. */
async function state(project: TestProject = p) {
  const tasks = await sql()`select number, name, description, state, due_date::text, kind, language from tasks where project_id = ${project.projectId} order by number`;
  const links = await sql()`select ta.number, count(tk.key_id)::int as keys from tasks ta left join task_keys tk on tk.task_id = ta.id where ta.project_id = ${project.projectId} group by ta.number order by ta.number`;
  const people = await sql()`select ta.number, a.user_id from tasks ta join task_assignees a on a.task_id = ta.id where ta.project_id = ${project.projectId} order by 1, 2`;
  const events = await sql()`select count(*)::int as n from domain_events where project_id = ${project.projectId} and type like 'task.%'`;
  return JSON.stringify({ tasks, links, people, events });
}

/**
 * What a browser sends with the form posting to `action`: its hidden, text and date inputs, the
 * checkboxes and radios ticked, its textareas and each select's chosen option (repeated names kept).
 */
function browserFields(html: string, action: string): Record<string, string[]> {
  const at = html.indexOf(`action="${action}"`);
  expect(at, `no form posting to ${action}`).toBeGreaterThan(-1);
  const form = html.slice(html.lastIndexOf('<form', at), html.indexOf('</form>', at));
  const fields: Record<string, string[]> = {};
  const add = (name: string, value: string) => (fields[name] ??= []).push(decode(value));
  for (const [tag] of form.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(tag)?.[1];
    if (!name) continue;
    if (/type="(checkbox|radio)"/.test(tag) && !/\bchecked\b/.test(tag)) continue;
    add(name, /value="([^"]*)"/.exec(tag)?.[1] ?? (/type="(checkbox|radio)"/.test(tag) ? 'on' : ''));
  }
  for (const [, name, text] of form.matchAll(/<textarea[^>]*name="([^"]+)"[^>]*>([^]*?)<\/textarea>/g)) add(name!, text!);
  for (const [, name, body] of form.matchAll(/<select[^>]*name="([^"]+)"[^>]*>([^]*?)<\/select>/g)) {
    const chosen = /<option value="([^"]*)"[^>]*selected/.exec(body!) ?? /<option value="([^"]*)"/.exec(body!);
    if (chosen) add(name!, chosen[1]!);
  }
  return fields;
}

/** The problem shown at a field of a refused form, tied to it by aria-describedby. */
function problemAt(html: string, form: string, field: string): string {
  const id = `problem-${form}-${field}`;
  expect(html, `no problem at ${field}`).toContain(`aria-describedby="${id}"`);
  return decode(new RegExp(`<p class="field-error" id="${id}">([^<]*)</p>`).exec(html)![1]!);
}

/** The task numbers a Tasks tab lists, in its order. */
const listed = (html: string) => [...html.matchAll(/<tr data-task="(\d+)">/g)].map((m) => Number(m[1]));
/** The key names an editor page lists. */
const editorKeys = (html: string) => [...html.matchAll(/<span class="mono keyname">([^<]*)<\/span>/g)].map((m) => decode(m[1]!));
/** The number a redirect to a task's page names. */
const numberOf = (res: PortalResponse) => Number(/\/tasks\/(\d+)/.exec(res.location ?? '')![1]);

/** The New task form as a browser would send it, with these fields changed. */
async function newTaskFields(client: PortalClient, changes: Record<string, string | string[]>, path = `${tab()}/new`) {
  const form = await client.get(path);
  expect(form.status, form.text.slice(0, 300)).toBe(200);
  return { ...browserFields(form.text, tab()), ...changes };
}

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['en', 'de', 'fr']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  for (const [key, group_name, tags] of [
    ['home.title', 'home', []],
    ['home.body', 'home', []],
    ['menu.open', 'menu', ['mobile']],
    ['menu.close', 'menu', ['mobile']],
  ] as const) {
    keys[key] = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name, tags }))).id;
    await put(key, 'en', `Source of ${key}`, 'approved');
  }
  dev = await signedInMember(t, p.accountId, 'developer');
  reviewer = await signedInMember(t, p.accountId, 'reviewer');
  translator = await signedInMember(t, p.accountId, 'translator', { languages: ['de'] });
  reviewerFr = await signedInMember(t, p.accountId, 'reviewer', { languages: ['fr'] });
  translatorFr = await signedInMember(t, p.accountId, 'translator', { languages: ['fr'] });
  const elsewhere = await t.newProject('team');
  stranger = await signedInMember(t, elsewhere.accountId, 'owner');
  for (const client of [dev, reviewer, translator, reviewerFr, translatorFr, stranger]) {
    const home = await client.get('/portal');
    emails.set(client, decode(/<span class="who">([^<]+)<\/span>/.exec(home.text)![1]!));
  }
});

describe('the New task form', () => {
  it('creates a task over the keys matching a group, leaving out those already done, and its page says so', async () => {
    await put('home.title', 'de', 'Titel', 'review'); // done for a translate task
    const form = await dev.get(`${tab()}/new`);
    expect(form.status).toBe(200);
    // The project's languages, the first one translated chosen (not the source language); the account's members to assign.
    expect(form.text).toContain('<option value="de" selected="">de</option>');
    expect(form.text).toContain('<option value="en">en (source language)</option>');
    expect(form.text).toContain(`value="${emails.get(translator)}"`);
    expect(form.text).toContain('<input type="date" name="due_date"');
    const fields = { ...browserFields(form.text, tab()), name: 'German for home', group: 'home', assignees: [emails.get(translator)!], due_date: '2031-01-31' };
    const res = await dev.post(tab(), fields);
    expect(res.status, res.text.slice(0, 400)).toBe(303);
    const number = numberOf(res);
    const page = await dev.follow(res);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`Created the task #${number} German for home with 1 key. 1 key was left out as already done.`);
    expect(page.text).toContain('<time datetime="2031-01-31">2031-01-31</time>');
    expect(page.text).toContain(emails.get(translator));
    expect(page.text).toContain(`by ${emails.get(dev)}`);
    expect(page.text).toContain('0 of 1 done');
    expect(page.text).toMatch(new RegExp(`<progress id="task-progress" value="0" max="1" aria-label="Progress of #${number} German for home"`));
    // Open in the editor: the task's keys, with the source language and the task's.
    expect(page.text).toContain(`href="${base()}?task=${number}&amp;lang=en&amp;lang=de"`);
    const task = await stored(number);
    expect(task).toMatchObject({ name: 'German for home', kind: 'translate', language: 'de', due_date: '2031-01-31', keys_total: 1, created_by: { type: 'user' } });
    expect(task.assignees.map((a: { email: string }) => a.email)).toEqual([emails.get(translator)]);
    const [event] = await sql()<{ actor_type: string }[]>`select actor_type from domain_events where project_id = ${p.projectId} and type = 'task.created' order by id desc limit 1`;
    expect(event!.actor_type).toBe('user');
  });

  it('sent twice with its one-time token (a reload, a double click), creates one task', async () => {
    const fields = await newTaskFields(dev, { name: 'Once', tag: 'mobile', include_done: 'yes' });
    const before = await state();
    const first = await dev.post(tab(), fields);
    expect(first.status).toBe(303);
    const after = await state();
    const again = await dev.post(tab(), fields);
    expect(again.status).toBe(303);
    expect(numberOf(again)).toBe(numberOf(first));
    expect((await dev.follow(again)).text).toContain(`This form was already sent: it created task #${numberOf(first)} once, and nothing was created again.`);
    expect(await state()).toBe(after);
    expect(after).not.toBe(before);
    // A double click: both sendings at once, one task.
    const twice = await newTaskFields(dev, { name: 'Double click', include_done: 'yes' });
    const [a, b] = await Promise.all([dev.post(tab(), twice), dev.post(tab(), twice)]);
    expect([a.status, b.status]).toEqual([303, 303]);
    expect(numberOf(a)).toBe(numberOf(b));
    const named = await sql()<{ n: number }[]>`select count(*)::int as n from tasks where project_id = ${p.projectId} and name = 'Double click'`;
    expect(named[0]!.n).toBe(1);
  });

  it('creates a task from the keys selected in the editor, carried to the form', async () => {
    const editor = await dev.get(`${base()}?lang=en&lang=fr`);
    expect(editor.text).toContain('<option value="task">Create a task from the selected keys</option>');
    const chosen = [keys['menu.open']!, keys['home.body']!];
    const res = await dev.post(`${base()}/bulk`, bulkFields(editor.text, chosen, 'task'));
    expect(res.status).toBe(303);
    expect(res.location).toMatch(new RegExp(`^${tab()}/new\\?key=`));
    const form = await dev.follow(res);
    expect(form.status).toBe(200);
    expect(form.text).toContain('The 2 keys selected in the editor');
    expect(form.text).toContain('home.body, menu.open');
    // The editor showed fr: the form chooses it.
    expect(form.text).toContain('<option value="fr" selected="">fr</option>');
    const fields: Record<string, string[]> = { ...browserFields(form.text, tab()), name: ['French picks'], kind: ['review'] };
    expect(fields.keys).toEqual(['selected']);
    expect(fields.key_ids!.sort()).toEqual([...chosen].sort());
    const created = await dev.post(tab(), fields);
    expect(created.status, created.text.slice(0, 400)).toBe(303);
    const listedKeys = await json(await t.call(p.apiKey, 'GET', `/v1/tasks/${numberOf(created)}/keys`));
    expect(listedKeys.data.map((k: { key: string }) => k.key)).toEqual(['home.body', 'menu.open']);
    expect(await stored(numberOf(created))).toMatchObject({ kind: 'review', language: 'fr' });
    // Nothing selected: said at the bulk action, nothing else happens.
    const none = await dev.post(`${base()}/bulk`, { ...bulkFields(editor.text, [], 'task') });
    expect(none.status).toBe(422);
    expect(none.text).toContain('Select at least one key first');
  });

  it('refuses bad input with a 4xx at its field, what was chosen kept, and writes nothing', async () => {
    const before = await state();
    const cases: [Record<string, string | string[]>, number, string, RegExp][] = [
      [{ name: '   ' }, 422, 'name', /name/],
      [{ name: 'Bad day', due_date: '2026-02-30' }, 422, 'due_date', /not a day of the calendar/],
      [{ name: 'Bad day', due_date: 'tomorrow' }, 422, 'due_date', /YYYY-MM-DD/],
      [{ name: 'Nobody', assignees: ['nobody@example.com'] }, 422, 'assignees', /nobody@example\.com is not a member of this project's account/],
      [{ name: 'Stranger', assignees: [emails.get(stranger)!] }, 422, 'assignees', /is not a member of this project's account/],
      [{ name: 'Review by a translator', kind: 'review', assignees: [emails.get(translator)!, emails.get(reviewer)!] }, 422, 'assignees', /\(translator\) may not approve values in de/],
      [{ name: 'Wrong language', assignees: [emails.get(translatorFr)!] }, 422, 'assignees', /\(translator\) may not edit values in de/],
      [{ name: 'No keys', group: 'nothing-here' }, 422, 'keys', /no key matches/],
      [{ name: 'All done', group: 'home', include_done: [] }, 422, 'keys', /already done in de|no key matches/],
      [{ name: 'Which kind', kind: 'proofread' }, 422, 'kind', /translate or review/],
      [{ name: 'Which language', language: 'ja' }, 422, 'language', /ja is not a language of this project/],
      [{ name: 'Selected none', keys: 'selected' }, 422, 'keys', /No key came with the form/],
    ];
    // home.body and home.title done in de: the group has nothing left to do.
    await put('home.body', 'de', 'Text', 'review');
    for (const [changes, status, field, message] of cases) {
      const fields = await newTaskFields(dev, { name: 'x', ...changes });
      if (Array.isArray(changes.include_done)) delete fields.include_done;
      const res = await dev.post(tab(), fields);
      expect(res.status, JSON.stringify(changes)).toBe(status);
      expect(problemAt(res.text, 'task', field), JSON.stringify(changes)).toMatch(message);
      // What was typed and chosen is kept.
      expect(res.text).toContain(`value="${typeof changes.name === 'string' ? changes.name : 'x'}"`);
      expect(res.text).toContain('Nothing was created: what you chose is kept below.');
      if (changes.assignees) for (const email of changes.assignees as string[]) expect(res.text).toMatch(new RegExp(`value="${email.replace(/[.]/g, '\\.')}" checked`));
    }
    expect(await state()).toBe(before);
    await put('home.body', 'de', 'Text', 'draft');
  });

  it('is refused without the CSRF token, as every portal form is: 403, nothing written', async () => {
    const before = await state();
    const fields = await newTaskFields(dev, { name: 'Forged', include_done: 'yes', _csrf: 'not-the-token' });
    expect((await dev.post(tab(), fields)).status).toBe(403);
    const number = await apiTask({ name: 'Target', key_ids: [keys['home.title']] });
    const after = await state();
    expect((await dev.post(`${taskPage(number)}/delete`, { _csrf: '' })).status).toBe(403);
    expect((await dev.post(`${taskPage(number)}/state`, { _csrf: 'x', state: 'canceled' })).status).toBe(403);
    expect(await state()).toBe(after);
    expect(after).not.toBe(before);
  });
});

describe('the Tasks tab', () => {
  let q: TestProject;
  const qKeys: string[] = [];
  beforeAll(async () => {
    q = await t.newProject('team');
    for (const code of ['en', 'de']) await json(await t.call(q.apiKey, 'POST', '/v1/languages', { code }));
    for (const key of ['a', 'b']) qKeys.push((await json(await t.call(q.apiKey, 'POST', '/v1/keys', { key }))).id);
  });

  it('lists the open tasks by default, filters by state and by "Assigned to me", and marks an open task past its day overdue', async () => {
    const member = await signedInMember(t, q.accountId, 'translator');
    const email = decode(/<span class="who">([^<]+)<\/span>/.exec((await member.get('/portal')).text)![1]!);
    const late = await apiTask({ name: 'Late', key_ids: qKeys, due_date: '2001-01-01', assignees: [email] }, q);
    const soon = await apiTask({ name: 'Soon', key_ids: qKeys, due_date: '9999-12-31' }, q);
    const dropped = await apiTask({ name: 'Dropped', key_ids: qKeys, due_date: '2001-01-01' }, q);
    await json(await t.call(q.apiKey, 'PATCH', `/v1/tasks/${dropped}`, { state: 'canceled' }));

    const open = await member.get(tab(q));
    expect(open.status).toBe(200);
    expect(open.text).toContain('aria-current="page" class="tab active">Tasks</a>');
    expect(listed(open.text)).toEqual([soon, late]);
    // Each row: the task linked by number and name, kind, language, assignees, due day, progress.
    expect(open.text).toContain(`<a href="${taskPage(late, q)}">#${late} Late</a>`);
    const lateRow = /<tr data-task="1">([^]*?)<\/tr>/.exec(open.text)![1]!;
    expect(lateRow).toContain('<td>translate</td><td>de</td>');
    expect(lateRow).toContain(email);
    expect(lateRow).toContain('<time datetime="2001-01-01">2001-01-01</time> <span class="badge warn">overdue</span>');
    expect(lateRow).toContain(`<progress id="progress-${late}" value="0" max="2" aria-label="Progress of #${late} Late"`);
    expect(lateRow).toContain('0 of 2 done');
    expect(/<tr data-task="2">([^]*?)<\/tr>/.exec(open.text)![1]!).not.toContain('overdue');

    const canceled = await member.get(`${tab(q)}?state=canceled`);
    expect(listed(canceled.text)).toEqual([dropped]);
    // Past its day, but not open: not overdue.
    expect(canceled.text).not.toContain('overdue');
    expect(listed((await member.get(`${tab(q)}?state=all`)).text)).toEqual([dropped, soon, late]);
    expect(listed((await member.get(`${tab(q)}?state=done`)).text)).toEqual([]);
    expect(listed((await member.get(`${tab(q)}?mine=1`)).text)).toEqual([late]);
    expect(listed((await member.get(`${tab(q)}?state=all&mine=1`)).text)).toEqual([late]);
    // A filter or page that is none shows the first page of open tasks, and says so.
    const odd = await member.get(`${tab(q)}?state=finished&cursor=abc`);
    expect(odd.status).toBe(200);
    expect(listed(odd.text)).toEqual([soon, late]);
    expect(odd.text).toContain('That state is not one of the choices');
    // A translator sees the tab, without the New task link.
    expect(open.text).not.toContain('>New task</a>');
    expect((await dev.get(tab())).text).toContain('>New task</a>');
  });

  it('pages 50 tasks at a time by their numbers', async () => {
    const r = await t.newProject('team');
    await json(await t.call(r.apiKey, 'POST', '/v1/languages', { code: 'de' }));
    const key = (await json(await t.call(r.apiKey, 'POST', '/v1/keys', { key: 'k' }))).id;
    for (let i = 0; i < 52; i++) await apiTask({ name: `T${i + 1}`, key_ids: [key] }, r);
    const owner = await signedInMember(t, r.accountId, 'owner');
    const first = await owner.get(tab(r));
    expect(listed(first.text)).toHaveLength(50);
    expect(listed(first.text)[0]).toBe(52);
    const next = /<a href="([^"]+)" rel="next">Next page<\/a>/.exec(first.text)![1]!;
    const second = await owner.get(decode(next));
    expect(listed(second.text)).toEqual([2, 1]);
    expect(second.text).toContain('>First page</a>');
    expect(second.text).not.toContain('rel="next"');
  });
});

describe("a task's page", () => {
  it('follows a value approved in the editor: progress, the key done, the keys to do and done', async () => {
    const number = await apiTask({ name: 'Review French', kind: 'review', language: 'fr', key_ids: [keys['home.title'], keys['menu.close']] });
    await put('home.title', 'fr', 'Titre', 'review');
    const before = await reviewer.get(taskPage(number));
    expect(before.status).toBe(200);
    expect(before.text).toContain('0 of 2 done');
    expect(before.text).toContain('<span class="status-review">review</span>');
    expect(before.text).toContain('<span class="status-none">no value</span>');
    // Each key links to its value in the editor: the task's keys, searched by its name, at the value.
    expect(before.text).toContain(`href="${base()}?task=${number}&amp;q=home.title&amp;lang=en&amp;lang=fr#v-${keys['home.title']}-fr"`);
    // Approved in the editor (the value's own form, as a reviewer).
    const saved = await reviewer.post(`${base()}/keys/${keys['home.title']}/values/fr`, { value: 'Titre', status: 'approved' });
    expect(saved.status).toBe(303);
    const after = await reviewer.get(taskPage(number));
    expect(after.text).toContain('1 of 2 done');
    expect(after.text).toMatch(/<progress id="task-progress" value="1" max="2"/);
    const done = await reviewer.get(`${taskPage(number)}?keys=done`);
    expect(done.text).toContain('>home.title</a>');
    expect(done.text).not.toContain('>menu.close</a>');
    expect(done.text).toContain('<span aria-hidden="true">✓ </span>done');
    const todo = await reviewer.get(`${taskPage(number)}?keys=todo`);
    expect(todo.text).toContain('>menu.close</a>');
    expect(todo.text).not.toContain('>home.title</a>');
    // The tab says the same.
    expect((await reviewer.get(tab())).text).toContain(`<progress id="progress-${number}" value="1" max="2"`);
  });

  it('refuses Mark done while a key is still to do (409, nothing changed), then marks it done; opens it again', async () => {
    const number = await apiTask({ name: 'Finish', key_ids: [keys['menu.open']], language: 'de' });
    await put('menu.open', 'de', 'Öffnen', 'draft');
    const page = await dev.get(taskPage(number));
    expect(page.text).toContain('>Mark done</button>');
    const before = await state();
    const early = await dev.post(`${taskPage(number)}/state`, { state: 'done' });
    expect(early.status).toBe(409);
    expect(early.text).toContain(`Not marked done: Task #${number} is not done: 1 of its 1 keys are still to translate`);
    expect(early.text).toContain('<h2>#');
    expect(await state()).toBe(before);
    await put('menu.open', 'de', 'Öffnen', 'review');
    const res = await dev.post(`${taskPage(number)}/state`, { state: 'done' });
    expect(res.status).toBe(303);
    const done = await dev.follow(res);
    expect(done.text).toContain(`Marked #${number} Finish done.`);
    expect(done.text).toMatch(new RegExp(`<dt>Marked done</dt><dd>\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC by ${emails.get(dev)!.replace(/[.]/g, '\\.')}</dd>`));
    expect(done.text).toContain('>Open again</button>');
    expect(done.text).not.toContain('>Mark done</button>');
    expect((await stored(number)).state).toBe('done');
    const reopened = await dev.follow(await dev.post(`${taskPage(number)}/state`, { state: 'open' }));
    expect(reopened.text).toContain(`Opened #${number} Finish again.`);
    const canceled = await dev.follow(await dev.post(`${taskPage(number)}/state`, { state: 'canceled' }));
    expect(canceled.text).toContain(`Canceled #${number} Finish.`);
    expect((await stored(number)).state).toBe('canceled');
    // A state that is none: a 4xx page, nothing changed.
    expect((await dev.post(`${taskPage(number)}/state`, { state: 'finished' })).status).toBe(422);
    expect((await stored(number)).state).toBe('canceled');
  });

  it("lets an assignee without tasks.manage mark their task done, and nothing else (403)", async () => {
    const number = await apiTask({ name: 'For the translator', key_ids: [keys['menu.close']], language: 'de', assignees: [emails.get(translator)] });
    const page = await translator.get(taskPage(number));
    expect(page.status).toBe(200);
    expect(page.text).toContain('>Mark done</button>');
    expect(page.text).not.toContain('>Cancel task</button>');
    expect(page.text).not.toContain('Edit task');
    expect(page.text).not.toContain('>Delete task</button>');
    const before = await state();
    expect((await translator.post(`${taskPage(number)}/state`, { state: 'canceled' })).status).toBe(403);
    expect((await translator.post(taskPage(number), { name: 'Mine now', name_was: 'For the translator' })).status).toBe(403);
    expect((await translator.post(`${taskPage(number)}/delete`)).status).toBe(403);
    expect((await translator.get(`${tab()}/new`)).status).toBe(403);
    expect((await translator.post(tab(), await newTaskFields(dev, { name: 'Sneaky', include_done: 'yes' }))).status).toBe(403);
    // Not assigned: not theirs to mark done either.
    expect((await translatorFr.post(`${taskPage(number)}/state`, { state: 'done' })).status).toBe(403);
    expect((await translatorFr.get(taskPage(number))).text).not.toContain('>Mark done</button>');
    expect(await state()).toBe(before);
    // The translator does the work in the editor, then marks it done.
    expect((await translator.post(`${base()}/keys/${keys['menu.close']}/values/de`, { value: 'Schließen', status: 'review' })).status).toBe(303);
    const res = await translator.post(`${taskPage(number)}/state`, { state: 'done' });
    expect(res.status).toBe(303);
    expect((await translator.follow(res)).text).toContain(`Marked #${number} For the translator done.`);
    const task = await stored(number);
    expect(task).toMatchObject({ state: 'done', closed_by: { type: 'user', name: emails.get(translator) } });
    // Opening it again is managing it.
    expect((await translator.post(`${taskPage(number)}/state`, { state: 'open' })).status).toBe(403);
  });

  it('is edited (only what changed), and deleted after asking; its keys and values stay', async () => {
    const number = await apiTask({ name: 'Edit me', description: 'First', key_ids: [keys['home.body']], language: 'de', assignees: [emails.get(translator)] });
    const page = await reviewer.get(taskPage(number));
    const form = browserFields(page.text, taskPage(number));
    expect(form.name_was).toEqual(['Edit me']);
    expect(form.assignees).toEqual([emails.get(translator)]);
    // Sent as shown: nothing to save, nothing recorded.
    const before = await state();
    const same = await reviewer.follow(await reviewer.post(taskPage(number), form));
    expect(same.text).toContain(`Nothing to save: #${number} Edit me is as it was.`);
    expect(await state()).toBe(before);
    // A colleague changes the description meanwhile: this form's name and assignees change, the description stays theirs.
    await json(await t.call(p.apiKey, 'PATCH', `/v1/tasks/${number}`, { description: 'Theirs' }));
    const saved = await reviewer.post(taskPage(number), { ...form, name: ['Edited'], assignees: [emails.get(reviewer)!, emails.get(translator)!], due_date: ['2032-02-29'] });
    expect(saved.status).toBe(303);
    expect((await reviewer.follow(saved)).text).toContain(`Saved #${number} Edited.`);
    const task = await stored(number);
    expect(task).toMatchObject({ name: 'Edited', description: 'Theirs', due_date: '2032-02-29' });
    expect(task.assignees.map((a: { email: string }) => a.email).sort()).toEqual([emails.get(reviewer), emails.get(translator)].sort());
    // None ticked: nobody.
    const fresh = browserFields((await reviewer.get(taskPage(number))).text, taskPage(number));
    delete fresh.assignees;
    expect((await reviewer.post(taskPage(number), fresh)).status).toBe(303);
    expect((await stored(number)).assignees).toEqual([]);
    // Refused: a day that is none, an address that is no member; the page again with the typed text kept, nothing written.
    const beforeBad = await state();
    const bad = await reviewer.post(taskPage(number), { ...fresh, name: ['Renamed'], due_date: ['2031-02-29'], assignees: ['ghost@example.com'] });
    expect(bad.status).toBe(422);
    expect(problemAt(bad.text, 'edit', 'due_date')).toMatch(/not a day of the calendar/);
    expect(bad.text).toContain('value="Renamed"');
    expect(await state()).toBe(beforeBad);
    const noMember = await reviewer.post(taskPage(number), { ...fresh, assignees: ['ghost@example.com'] });
    expect(noMember.status).toBe(422);
    expect(problemAt(noMember.text, 'edit', 'assignees')).toMatch(/ghost@example\.com is not a member/);
    expect(await state()).toBe(beforeBad);

    // Delete: asked first (the form's confirmation), then gone; the keys and values stay.
    expect(page.text).toMatch(/data-confirm="Delete #\d+ Edit me\? Its keys and values stay; the task cannot be restored\."/);
    const deleted = await reviewer.post(`${taskPage(number)}/delete`);
    expect(deleted.status).toBe(303);
    expect(deleted.location).toMatch(new RegExp(`^${tab()}\\?outcome=`));
    expect((await reviewer.follow(deleted)).text).toContain(`Deleted the task #${number} Edited; its keys and values stay.`);
    expect((await reviewer.get(taskPage(number))).status).toBe(404);
    expect((await t.call(p.apiKey, 'GET', `/v1/keys/${keys['home.body']}`)).status).toBe(200);
    // The activity says it in words.
    const activity = await reviewer.get(`${base()}/activity`);
    expect(activity.text).toContain('deleted the task');
  });

  it('answers 404 for a number the project does not have, or that is no number; another account\'s user gets 404 for everything', async () => {
    const number = await apiTask({ name: 'Private', key_ids: [keys['home.title']] });
    for (const path of [`${tab()}/99999`, `${tab()}/abc`, `${tab()}/0`, `${tab()}/-1`, `${tab()}/1.5`, `${tab()}/99999999999`]) {
      const res = await dev.get(path);
      expect(res.status, path).toBe(404);
      expect(res.text).toContain('Not found');
    }
    expect((await dev.post(`${tab()}/abc/state`, { state: 'done' })).status).toBe(404);
    expect((await dev.post(`${tab()}/99999/delete`)).status).toBe(404);
    expect((await dev.post(`${tab()}/99999`, { name: 'x' })).status).toBe(404);
    const before = await state();
    for (const [method, path] of [
      ['GET', tab()],
      ['GET', `${tab()}/new`],
      ['GET', taskPage(number)],
      ['POST', tab()],
      ['POST', taskPage(number)],
      ['POST', `${taskPage(number)}/state`],
      ['POST', `${taskPage(number)}/delete`],
    ] as const) {
      const res = method === 'GET' ? await stranger.get(path) : await stranger.post(path, { name: 'Theirs', state: 'canceled', kind: 'translate', language: 'de', keys: 'matching' });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(await state()).toBe(before);
  });

  it('is seen by a translator limited to some languages, who may not manage it (403); a reviewer limited to fr manages only fr tasks', async () => {
    const german = await apiTask({ name: 'German work', key_ids: [keys['home.title']], language: 'de' });
    const french = await apiTask({ name: 'French work', key_ids: [keys['home.title']], language: 'fr' });
    expect((await translatorFr.get(tab())).status).toBe(200);
    expect((await translatorFr.get(taskPage(german))).status).toBe(200);
    const before = await state();
    expect((await translatorFr.post(`${taskPage(french)}/state`, { state: 'canceled' })).status).toBe(403);
    expect((await translatorFr.post(`${taskPage(french)}/delete`)).status).toBe(403);
    // A reviewer limited to fr: the German task is not theirs to manage, nor a German task to create.
    const germanPage = await reviewerFr.get(taskPage(german));
    expect(germanPage.text).not.toContain('>Cancel task</button>');
    expect((await reviewerFr.post(`${taskPage(german)}/state`, { state: 'canceled' })).status).toBe(403);
    expect((await reviewerFr.post(`${taskPage(german)}/delete`)).status).toBe(403);
    expect((await reviewerFr.post(tab(), await newTaskFields(dev, { name: 'German by a French reviewer', include_done: 'yes', language: 'de' }))).status).toBe(403);
    expect(await state()).toBe(before);
    // Their own language's: yes; and their form offers only fr.
    const form = await reviewerFr.get(`${tab()}/new`);
    expect(form.text).toContain('<option value="fr" selected="">fr</option>');
    expect(form.text).not.toContain('<option value="de"');
    expect((await reviewerFr.post(`${taskPage(french)}/state`, { state: 'canceled' })).status).toBe(303);
  });
});

describe("the editor's Task filter", () => {
  it("lists only the task's keys, with its open tasks to choose from", async () => {
    const number = await apiTask({ name: 'Menu words', key_ids: [keys['menu.open'], keys['menu.close']] });
    const closed = await apiTask({ name: 'Closed one', key_ids: [keys['home.title']] });
    await json(await t.call(p.apiKey, 'PATCH', `/v1/tasks/${closed}`, { state: 'canceled' }));
    const editor = await translator.get(`${base()}?task=${number}&lang=en&lang=de`);
    expect(editor.status).toBe(200);
    expect(editorKeys(editor.text)).toEqual(['menu.close', 'menu.open']);
    expect(editor.text).toContain(`<option value="${number}" selected="">#${number} Menu words</option>`);
    // Only open tasks are offered (a closed one only while it is the one chosen).
    expect(editor.text).not.toContain(`#${closed} Closed one</option>`);
    const chosenClosed = await translator.get(`${base()}?task=${closed}&lang=en&lang=de`);
    expect(editorKeys(chosenClosed.text)).toEqual(['home.title']);
    expect(chosenClosed.text).toContain(`<option value="${closed}" selected="">#${closed} Closed one</option>`);
    // The filter stays through the page's forms and links.
    expect(editor.text).toMatch(new RegExp(`name="return_to" value="${base()}\\?lang=en&amp;lang=de&amp;task=${number}"`));
    // Combined with the other filters; a number no task has: no key; one that is no number: no filter.
    expect(editorKeys((await translator.get(`${base()}?task=${number}&q=open&lang=en`)).text)).toEqual(['menu.open']);
    const none = await translator.get(`${base()}?task=99999&lang=en`);
    expect(none.status).toBe(200);
    expect(editorKeys(none.text)).toEqual([]);
    expect(none.text).toContain('No key matches these filters.');
    const odd = await translator.get(`${base()}?task=abc&lang=en`);
    expect(odd.status).toBe(200);
    expect(editorKeys(odd.text)).toHaveLength(4);
    // "Create a task from the selected keys" is for tasks.manage only.
    expect(editor.text).not.toContain('Create a task from the selected keys');
    expect((await translator.post(`${base()}/bulk`, bulkFields(editor.text, [keys['menu.open']!], 'task'))).status).toBe(403);
  });
});

describe('My tasks', () => {
  it("lists a member's open tasks across their projects on the projects page, soonest due first; nothing when none", async () => {
    const r = await t.newProject('team');
    await json(await t.call(r.apiKey, 'POST', '/v1/languages', { code: 'de' }));
    const key = (await json(await t.call(r.apiKey, 'POST', '/v1/keys', { key: 'k' }))).id;
    const member = await signedInMember(t, r.accountId, 'reviewer');
    const email = decode(/<span class="who">([^<]+)<\/span>/.exec((await member.get('/portal')).text)![1]!);
    expect((await member.get('/portal')).text).not.toContain('My tasks');
    const later = await apiTask({ name: 'Later', key_ids: [key], due_date: '9999-01-01', assignees: [email] }, r);
    const late = await apiTask({ name: 'Late one', kind: 'review', key_ids: [key], due_date: '2001-01-01', assignees: [email] }, r);
    const finished = await apiTask({ name: 'Finished', key_ids: [key], assignees: [email] }, r);
    await json(await t.call(r.apiKey, 'PATCH', `/v1/tasks/${finished}`, { state: 'canceled' }));
    await apiTask({ name: 'Not mine', key_ids: [key] }, r);
    const home = await member.get('/portal');
    expect(home.status).toBe(200);
    const section = /<section class="my-tasks"[^>]*>([^]*?)<\/section>/.exec(home.text)![1]!;
    expect(section).toContain('<h2 id="my-tasks">My tasks</h2>');
    const links = [...section.matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [m[1], decode(m[2]!)]);
    expect(links).toEqual([
      [taskPage(late, r), `#${late} Late one`],
      [taskPage(later, r), `#${later} Later`],
    ]);
    expect(section).toContain('<td>project</td>');
    expect(section).toContain('<td>review</td><td>de</td>');
    expect(section).toContain('<span class="badge warn">overdue</span>');
    expect(section).toContain('0 of 1 done');
    expect(section).not.toContain('Not mine');
    expect(section).not.toContain('Finished');
    // Each links to the task's page, which the member may open.
    expect((await member.get(taskPage(late, r))).status).toBe(200);
  });
});
