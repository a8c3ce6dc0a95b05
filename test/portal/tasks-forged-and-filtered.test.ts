// the portal's tasks (functions/portal/tasks.ts): forged manage actions refused and
// writing nothing, names escaped, the editor's Task filter combined with the other filters, links.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient } from './support/portal-client.ts';
import { signedInMember } from './support/signed-in-member.ts';
import { decode } from './support/form-fields.ts';
import { removeMember } from '../../core/users/members.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;

let p: TestProject;
let dev: PortalClient;
let translator: PortalClient;
let reviewerFr: PortalClient;
let owner: PortalClient;
const emails = new Map<PortalClient, string>();
const ids = new Map<PortalClient, string>();
const keys: Record<string, string> = {};
const base = (project: TestProject = p) => `/portal/projects/${project.projectId}`;
const tab = () => `${base()}/tasks`;

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}
const put = async (key: string, language: string, value: string, status: string) =>
  json(await t.call(p.apiKey, 'PUT', `/v1/keys/${keys[key]}/translations/${language}`, { value, status }));
const apiTask = async (body: Record<string, unknown>): Promise<number> =>
  (await json(await t.call(p.apiKey, 'POST', '/v1/tasks', { kind: 'translate', language: 'de', include_done: true, include_tasked: true, ...body }))).number;
async function state() {
  const tasks = await sql()`select number, name, description, state, due_date::text, kind, language from tasks where project_id = ${p.projectId} order by number`;
  const links = await sql()`select ta.number, count(tk.key_id)::int as keys from tasks ta left join task_keys tk on tk.task_id = ta.id where ta.project_id = ${p.projectId} group by ta.number order by ta.number`;
  const people = await sql()`select ta.number, a.user_id from tasks ta join task_assignees a on a.task_id = ta.id where ta.project_id = ${p.projectId} order by 1, 2`;
  return JSON.stringify({ tasks, links, people });
}

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['en', 'de', 'fr']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  for (const key of ['home.greeting', 'home.fine', 'other.broken']) {
    keys[key] = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name: key.split('.')[0] }))).id;
  }
  await put('home.greeting', 'en', 'Hello {name}!', 'approved');
  await put('home.greeting', 'de', 'Hallo!', 'draft'); // a problem: {name} missing
  await put('home.fine', 'en', 'Save', 'approved');
  await put('home.fine', 'de', 'Speichern', 'draft');
  await put('other.broken', 'en', 'Bye {name}!', 'approved');
  await put('other.broken', 'de', 'Tschüss!', 'draft'); // a problem too
  dev = await signedInMember(t, p.accountId, 'developer');
  owner = await signedInMember(t, p.accountId, 'owner');
  translator = await signedInMember(t, p.accountId, 'translator', { languages: ['de'] });
  reviewerFr = await signedInMember(t, p.accountId, 'reviewer', { languages: ['fr'] });
  for (const client of [dev, owner, translator, reviewerFr]) {
    const home = await client.get('/portal');
    const email = decode(/<span class="who">([^<]+)<\/span>/.exec(home.text)![1]!);
    emails.set(client, email);
    const [u] = await sql()<{ id: string }[]>`select id from users where email = ${email}`;
    ids.set(client, u!.id);
  }
});

describe('forged manage actions', () => {
  it('an assignee translator may only mark done: edit, cancel, open again, delete and create are 403 and write nothing', async () => {
    const n = await apiTask({ name: 'Mine', key_ids: [keys['home.fine']!], assignees: [emails.get(translator)!] });
    const before = await state();
    const page = await translator.get(`${tab()}/${n}`);
    expect(page.status).toBe(200);
    for (const [path, fields] of [
      [`${tab()}/${n}`, { name: 'hacked', name_was: 'Mine' }],
      [`${tab()}/${n}/state`, { state: 'canceled' }],
      [`${tab()}/${n}/state`, { state: 'open' }],
      [`${tab()}/${n}/delete`, {}],
      [tab(), { name: 'new', kind: 'translate', language: 'de', keys: 'matching', submission: crypto.randomUUID() }],
    ] as const) {
      const res = await translator.post(path, fields);
      expect(res.status, `${path} ${JSON.stringify(fields)}`).toBe(403);
    }
    expect(await state()).toBe(before);
  });

  it('a reviewer limited to fr cannot manage a de task, nor create one in de (any case)', async () => {
    const n = await apiTask({ name: 'German', key_ids: [keys['home.fine']!] });
    const before = await state();
    await reviewerFr.get(`${tab()}/${n}`);
    for (const [path, fields] of [
      [`${tab()}/${n}`, { name: 'hacked', name_was: 'German' }],
      [`${tab()}/${n}/state`, { state: 'canceled' }],
      [`${tab()}/${n}/state`, { state: 'done' }],
      [`${tab()}/${n}/delete`, {}],
      [tab(), { name: 'new', kind: 'translate', language: 'de', keys: 'matching', submission: crypto.randomUUID() }],
      [tab(), { name: 'new', kind: 'translate', language: 'DE', keys: 'matching', submission: crypto.randomUUID() }],
      [tab(), { name: 'new', kind: 'translate', language: 'de ', keys: 'matching', submission: crypto.randomUUID() }],
    ] as const) {
      const res = await reviewerFr.post(path, fields);
      expect(res.status, `${path} ${JSON.stringify(fields)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path} ${JSON.stringify(fields)}`).toBeLessThan(500);
    }
    expect(await state()).toBe(before);
  });

  it('without the CSRF token every task form is refused', async () => {
    const n = await apiTask({ name: 'Csrf', key_ids: [keys['home.fine']!] });
    const before = await state();
    for (const path of [`${tab()}/${n}`, `${tab()}/${n}/state`, `${tab()}/${n}/delete`, tab()]) {
      const res = await dev.post(path, { _csrf: 'wrong', name: 'x', state: 'canceled', kind: 'translate', language: 'de', keys: 'matching' });
      expect(res.status, path).toBe(403);
    }
    expect(await state()).toBe(before);
  });
});

describe('escaping', () => {
  it("a task's name and description are text everywhere they are shown", async () => {
    const evil = `<img src=x onerror=alert(1)>"'&`;
    const n = await apiTask({
      name: `N ${evil}`,
      description: `</textarea><script>alert(2)</script> ${evil}`,
      key_ids: [keys['home.fine']!],
      assignees: [emails.get(translator)!],
    });
    const pages = [
      await dev.get(tab()),
      await dev.get(`${tab()}/${n}`),
      await translator.get('/portal'),
      await dev.get(`${base()}?task=${n}`),
      await dev.get(`${base()}`),
    ];
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('<img src=x');
      expect(page.text).not.toContain('<script>alert(2)');
      expect(page.text).not.toMatch(/="[^"]*"'&/);
    }
  });
});

describe("the editor's Task filter", () => {
  it('with "Has problems in", lists only the problems of the task\'s keys', async () => {
    const n = await apiTask({ name: 'Greeting only', key_ids: [keys['home.greeting']!] });
    const plain = await dev.get(`${base()}?lang=en&lang=de&task=${n}`);
    expect(plain.text).toContain('home.greeting');
    expect(plain.text.includes('other.broken')).toBe(false);
    const problems = await dev.get(`${base()}?lang=en&lang=de&task=${n}&problems=de`);
    expect(problems.status).toBe(200);
    expect(problems.text).toContain('home.greeting');
    // other.broken is in no task: the Task filter must still apply.
    expect(problems.text.includes('other.broken'), 'other.broken (in no task) listed under task + problems filters').toBe(false);
  });

  it("a key's link from a task's page finds the key, even with a long name", async () => {
    const long = `long.${'x'.repeat(300)}`;
    const id = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: long, group_name: 'long' }))).id;
    const n = await apiTask({ name: 'Long', key_ids: [id] });
    const page = await dev.get(`${tab()}/${n}`);
    const href = decode(new RegExp(`href="([^"]*#v-${id}-de)"`).exec(page.text)![1]!);
    const editor = await dev.get(href.replace(/#.*$/, ''));
    expect(editor.status, /<p[^>]*class="[^"]*error[^"]*"[^>]*>([^<]*)/.exec(editor.text)?.[1] ?? '').toBe(200);
    expect(editor.text.includes(`id="v-${id}-de"`)).toBe(true);
  });
});

describe('My tasks', () => {
  it('is gone after leaving the account, and the assignment with it', async () => {
    const leaver = await signedInMember(t, p.accountId, 'translator');
    const email = decode(/<span class="who">([^<]+)<\/span>/.exec((await leaver.get('/portal')).text)![1]!);
    const [u] = await sql()<{ id: string }[]>`select id from users where email = ${email}`;
    await apiTask({ name: 'Leaver task', key_ids: [keys['home.fine']!], assignees: [email] });
    expect((await leaver.get('/portal')).text).toContain('Leaver task');
    await removeMember(t.runtime.deps, { accountId: p.accountId, userId: ids.get(owner)!, memberId: u!.id });
    expect((await leaver.get('/portal')).text).not.toContain('Leaver task');
    const [left] = await sql()<{ n: number }[]>`select count(*)::int as n from task_assignees where user_id = ${u!.id}`;
    expect(left!.n).toBe(0);
  });
});
