// tasks: two PATCHes adding keys past 10,000 at once, assignments pruned on role
// changes, and an assignee's "mark done" not reaching further than an open task.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { changeRole } from '../../core/users/members.ts';
import { signedInMember } from '../portal/support/signed-in-member.ts';
import { decode } from '../portal/support/form-fields.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}
async function project(): Promise<TestProject & { key: string }> {
  const p = await t.newProject('team');
  for (const code of ['en', 'de', 'fr']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
  const key = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'k0', group_name: 'main' }))).id;
  await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${key}/translations/en`, { value: 'Source', status: 'approved' }));
  return { ...p, key };
}
let seq = 0;
async function member(accountId: string, role: string, languages: string[] | null = null) {
  const email = `probe2-${role}-${seq++}-${Date.now()}@example.com`;
  const [user] = await sql()<{ id: string }[]>`insert into users (email, password_hash) values (${email}, 'x') returning id`;
  await sql()`insert into memberships (user_id, account_id, role, languages) values (${user!.id}, ${accountId}, ${role}, ${languages})`;
  return { id: user!.id, email };
}

describe('bounds under concurrency', () => {
  it('two PATCHes adding keys at once never leave a task with more than 10,000 keys', async () => {
    const p = await project();
    const n = (await json(await t.call(p.apiKey, 'POST', '/v1/tasks', { name: 'big', kind: 'translate', language: 'de', key_ids: [p.key] }))).number;
    const rows = await sql()<{ id: string }[]>`
      insert into translation_keys (project_id, key, group_name) select ${p.projectId}, 'bulk.' || g, 'bulk' from generate_series(1, 10000) g returning id`;
    const ids = rows.map((r) => r.id);
    const [first, second] = await Promise.all([
      t.call(p.apiKey, 'PATCH', `/v1/tasks/${n}`, { add_keys: ids.slice(0, 5000) }),
      t.call(p.apiKey, 'PATCH', `/v1/tasks/${n}`, { add_keys: ids.slice(5000) }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 422]);
    const [count] = await sql()<{ n: number }[]>`select count(*)::int as n from task_keys tk join tasks ta on ta.id = tk.task_id where ta.project_id = ${p.projectId}`;
    expect(count!.n).toBeLessThanOrEqual(10_000);
  }, 120_000);
});

describe('assignments follow role changes', () => {
  it('a translator moved to other languages, and a reviewer made translator, leave the tasks they may no longer do', async () => {
    const p = await project();
    const owner = await member(p.accountId, 'owner');
    const tr = await member(p.accountId, 'translator', ['de']);
    const rv = await member(p.accountId, 'reviewer');
    const de = (await json(await t.call(p.apiKey, 'POST', '/v1/tasks', { name: 'de', kind: 'translate', language: 'de', key_ids: [p.key], assignees: [tr.email, rv.email] }))).number;
    const review = (await json(await t.call(p.apiKey, 'POST', '/v1/tasks', { name: 'review', kind: 'review', language: 'fr', key_ids: [p.key], include_done: true, assignees: [rv.email] }))).number;
    await changeRole(t.runtime.deps, { accountId: p.accountId, userId: owner.id, memberId: tr.id, role: 'translator', languages: ['fr'] });
    await changeRole(t.runtime.deps, { accountId: p.accountId, userId: owner.id, memberId: rv.id, role: 'translator', languages: ['de'] });
    const emailsOf = async (n: number) => (await json(await t.call(p.apiKey, 'GET', `/v1/tasks/${n}`))).assignees.map((a: { email: string }) => a.email);
    expect(await emailsOf(de)).toEqual([rv.email]);
    expect(await emailsOf(review)).toEqual([]);
  });
});

describe("an assignee's Mark done", () => {
  it('does not turn a task a manager canceled into done (only tasks.manage closes or reopens it otherwise)', async () => {
    const p = await project();
    const assignee = await signedInMember(t, p.accountId, 'translator', { languages: ['de'] });
    const email = decode(/<span class="who">([^<]+)<\/span>/.exec((await assignee.get('/portal')).text)![1]!);
    const n = (await json(await t.call(p.apiKey, 'POST', '/v1/tasks', { name: 'x', kind: 'translate', language: 'de', key_ids: [p.key], assignees: [email] }))).number;
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${p.key}/translations/de`, { value: 'Quelle', status: 'review' }));
    await json(await t.call(p.apiKey, 'PATCH', `/v1/tasks/${n}`, { state: 'canceled' }));
    await assignee.get(`/portal/projects/${p.projectId}/tasks/${n}`);
    const res = await assignee.post(`/portal/projects/${p.projectId}/tasks/${n}/state`, { state: 'done' });
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/tasks/${n}`))).state, `answered ${res.status}`).toBe('canceled');
  });
});
