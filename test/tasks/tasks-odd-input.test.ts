// /v1/tasks (core/tasks): bad input never a 5xx, other projects' and accounts'
// data never seen or touched, refusals write nothing, numbers distinct under concurrency, progress.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { json, taskProject, type TaskTestProject } from './support/task-project.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;

type Project = TaskTestProject;
const project = (names = ['a', 'b', 'c']): Promise<Project> => taskProject(t, { names });
let seq = 0;
async function member(accountId: string, role: string, languages: string[] | null = null) {
  const email = `probe-${role}-${seq++}-${Date.now()}@example.com`;
  const [user] = await sql()<{ id: string }[]>`insert into users (email, password_hash) values (${email}, 'x') returning id`;
  await sql()`insert into memberships (user_id, account_id, role, languages) values (${user!.id}, ${accountId}, ${role}, ${languages})`;
  return { id: user!.id, email };
}
const create = (p: TestProject, body: unknown) => t.call(p.apiKey, 'POST', '/v1/tasks', body);
const snapshot = async (p: TestProject) =>
  JSON.stringify({
    tasks: await sql()`select number, name, state from tasks where project_id = ${p.projectId} order by number`,
    keys: await sql()`select ta.number, tk.key_id from tasks ta join task_keys tk on tk.task_id = ta.id where ta.project_id = ${p.projectId} order by 1, 2`,
    people: await sql()`select ta.number, a.user_id from tasks ta join task_assignees a on a.task_id = ta.id where ta.project_id = ${p.projectId} order by 1, 2`,
    counter: await sql()`select last from task_numbers where project_id = ${p.projectId}`,
    events: await sql()`select count(*)::int as n from domain_events where project_id = ${p.projectId} and type like 'task.%'`,
  });

describe('bad input is a 4xx, never a 5xx', () => {
  it('odd JSON types in filter.task', async () => {
    const p = await project();
    const odd: unknown[] = [-1, 0, 'abc', 1.5, '1.5', true, null, [1], {}, '', ' 1', '01', 1e21, 9999999999, '9999999999', -0, 1e3];
    for (const task of odd) {
      const res = await create(p, { name: 'x', kind: 'translate', language: 'de', filter: { task } });
      expect(res.status, `task: ${JSON.stringify(task)} -> ${res.status} ${await res.clone().text()}`).toBeLessThan(500);
      expect([422, 400], `task: ${JSON.stringify(task)}`).toContain(res.status);
    }
    for (const q of ['-1', '0', 'abc', '1.5', '1e3', '9999999999', '', '%00', '1&task=2']) {
      const res = await t.call(p.apiKey, 'GET', `/v1/keys?task=${q}`);
      expect(res.status, `?task=${q} -> ${res.status} ${await res.clone().text()}`).toBeLessThan(500);
    }
  });

  it('path numbers, queries and bodies', async () => {
    const p = await project();
    for (const path of ['0', '-1', '1e3', '9999999999', '999999999', 'abc', '1.5', '%20', '01', '2147483648', '1000000000']) {
      for (const [method, suffix, body] of [['GET', '', undefined], ['GET', '/keys', undefined], ['PATCH', '', { name: 'x' }], ['DELETE', '', undefined]] as const) {
        const res = await t.call(p.apiKey, method, `/v1/tasks/${path}${suffix}`, body);
        expect(res.status, `${method} /v1/tasks/${path}${suffix} -> ${res.status} ${await res.clone().text()}`).toBeLessThan(500);
      }
    }
    for (const q of ['limit=0', 'limit=201', 'limit=abc', 'limit=1&limit=2', 'cursor=0', 'cursor=abc', 'cursor=9999999999', 'state=x', 'kind=x', 'language=xx-xxxxx', 'assignee=nope', 'other=1']) {
      const res = await t.call(p.apiKey, 'GET', `/v1/tasks?${q}`);
      expect(res.status, `?${q} -> ${res.status}`).toBeLessThan(500);
    }
    const n = (await json(await create(p, { name: 'x', kind: 'translate', language: 'de', filter: {} }))).number;
    for (const q of ['cursor=abc', 'cursor=' + 'A'.repeat(5000), 'done=maybe', 'limit=0', 'limit=501', 'done=true&done=false']) {
      const res = await t.call(p.apiKey, 'GET', `/v1/tasks/${n}/keys?${q}`);
      expect(res.status, `keys ?${q} -> ${res.status} ${await res.clone().text()}`).toBeLessThan(500);
    }
    const before = await snapshot(p);
    const bodies: unknown[] = [
      { name: 'x', kind: 'translate', language: 'de', key_ids: ['not-a-uuid'] },
      { name: 'x', kind: 'translate', language: 'de', key_ids: [] },
      { name: 'x', kind: 'translate', language: 'de', key_ids: Array.from({ length: 10_001 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`) },
      { name: 'x', kind: 'translate', language: 'de', filter: {}, assignees: Array.from({ length: 21 }, (_, i) => `x${i}@example.com`) },
      { name: 'x', kind: 'translate', language: 'de', filter: {}, due_date: '2026-02-30' },
      { name: 'x', kind: 'translate', language: 'de', filter: {}, due_date: '0000-01-01' },
      { name: 'x', kind: 'translate', language: 'de', filter: {}, due_date: '+10000-01-01' },
      { name: 'x', kind: 'translate', language: 'de', filter: {}, due_date: 20261231 },
      { name: 'x', kind: 'translate', language: 'de', filter: {}, due_date: '2026-12-31T00:00:00Z' },
      { name: 'x', kind: 'translate', language: 'zz', filter: {} },
      { name: 'x', kind: 'translate', language: 'de', filter: [] },
      { name: 'x', kind: 'translate', language: 'de', filter: { group: '' } },
      { name: 'x', kind: 'other', language: 'de', filter: {} },
      { name: '', kind: 'translate', language: 'de', filter: {} },
      { name: 'x', kind: 'translate', language: 'de', filter: {}, key_ids: [p.keys.a] },
      { name: 'x\u0000', kind: 'translate', language: 'de', filter: {} },
      { name: 'x', description: 'y'.repeat(2001), kind: 'translate', language: 'de', filter: {} },
      [],
      'str',
      null,
    ];
    for (const body of bodies) {
      const res = await create(p, body);
      expect(res.status, `${JSON.stringify(body).slice(0, 200)} -> ${res.status} ${(await res.clone().text()).slice(0, 300)}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    const patches: unknown[] = [
      { add_keys: ['nope'] },
      { remove_keys: ['nope'] },
      { due_date: '2026-13-01' },
      { state: 'closed' },
      { assignees: ['not an email'] },
      { assignees: null },
      {},
      { name: 'ok', add_keys: [crypto.randomUUID()] },
    ];
    for (const body of patches) {
      const res = await t.call(p.apiKey, 'PATCH', `/v1/tasks/${n}`, body);
      expect(res.status, `PATCH ${JSON.stringify(body)} -> ${res.status} ${await res.clone().text()}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect(await snapshot(p)).toBe(before);
  });
});

describe("another project's or account's data", () => {
  it("a key of another project is refused at creation and in add_keys, and nothing is written (no number taken)", async () => {
    const a = await project();
    const b = await project();
    const before = await snapshot(a);
    const res = await create(a, { name: 'x', kind: 'translate', language: 'de', key_ids: [a.keys.a, b.keys.a] });
    expect(res.status).toBe(422);
    expect(await snapshot(a)).toBe(before);
    const n = (await json(await create(a, { name: 'x', kind: 'translate', language: 'de', key_ids: [a.keys.a] }))).number;
    expect(n).toBe(1);
    const before2 = await snapshot(a);
    const patch = await t.call(a.apiKey, 'PATCH', `/v1/tasks/${n}`, { name: 'renamed', add_keys: [b.keys.b] });
    expect(patch.status).toBe(422);
    expect(await snapshot(a)).toBe(before2);
    // remove_keys of another project's key: nothing happens to either project.
    const removed = await json(await t.call(a.apiKey, 'PATCH', `/v1/tasks/${n}`, { remove_keys: [b.keys.a] }));
    expect(removed.keys_total).toBe(1);
  });

  it("GET /v1/keys?task=N and filter {task: N} only ever see this project's task N", async () => {
    const a = await project();
    const b = await project(['x', 'y']);
    await json(await create(a, { name: 'A1', kind: 'translate', language: 'de', key_ids: [a.keys.a] }));
    const listed = await json(await t.call(b.apiKey, 'GET', '/v1/keys?task=1'));
    expect(listed.keys ?? listed.data).toEqual([]);
    const res = await create(b, { name: 'B', kind: 'translate', language: 'de', filter: { task: 1 } });
    expect(res.status).toBe(422);
    expect(await json(await t.call(b.apiKey, 'GET', '/v1/tasks'))).toMatchObject({ data: [] });
    expect((await t.call(b.apiKey, 'GET', '/v1/tasks/1')).status).toBe(404);
    expect((await t.call(b.apiKey, 'GET', '/v1/tasks/1/keys')).status).toBe(404);
    expect((await t.call(b.apiKey, 'PATCH', '/v1/tasks/1', { name: 'stolen' })).status).toBe(404);
    expect((await t.call(b.apiKey, 'DELETE', '/v1/tasks/1')).status).toBe(404);
    expect((await json(await t.call(a.apiKey, 'GET', '/v1/tasks/1'))).name).toBe('A1');
  });

  it("a member of another account is not an assignee, nor found by ?assignee=", async () => {
    const a = await project();
    const b = await project();
    const outsider = await member(b.accountId, 'owner');
    const before = await snapshot(a);
    const res = await create(a, { name: 'x', kind: 'translate', language: 'de', filter: {}, assignees: [outsider.email] });
    expect(res.status).toBe(422);
    expect(await snapshot(a)).toBe(before);
  });
});

describe('concurrency', () => {
  it('creates at once get distinct numbers', async () => {
    const p = await project();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => create(p, { name: `t${i}`, kind: 'translate', language: 'de', filter: {}, include_tasked: true })));
    const numbers = await Promise.all(results.map(async (r) => (await json(r)).number as number));
    expect(numbers.sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('progress', () => {
  it('a translate task in the source language counts review/approved source values as done', async () => {
    const p = await project();
    const res = await json(await create(p, { name: 'src', kind: 'review', language: 'en', filter: {}, include_done: true }));
    expect(res).toMatchObject({ keys_total: 3, keys_done: 3 });
    const keys = await json(await t.call(p.apiKey, 'GET', `/v1/tasks/${res.number}/keys`));
    expect(keys.data.every((k: { outdated: boolean; done: boolean }) => !k.outdated && k.done)).toBe(true);
  });

  it('a key trashed then restored leaves the counts and comes back; a language removed takes its tasks', async () => {
    const p = await project();
    const n = (await json(await create(p, { name: 'de', kind: 'translate', language: 'de', filter: {} }))).number;
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${p.keys.a}`)).status).toBe(204);
    expect(await json(await t.call(p.apiKey, 'GET', `/v1/tasks/${n}`))).toMatchObject({ keys_total: 2 });
    expect((await t.admin('POST', `/projects/${p.projectId}/keys/${p.keys.a}/restore`)).status).toBe(200);
    expect(await json(await t.call(p.apiKey, 'GET', `/v1/tasks/${n}`))).toMatchObject({ keys_total: 3 });
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/de')).status).toBe(200);
    expect((await t.call(p.apiKey, 'GET', `/v1/tasks/${n}`)).status).toBe(404);
    // Re-added: no task comes back, the number is not given again.
    await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' }));
    const again = await json(await create(p, { name: 'de again', kind: 'translate', language: 'de', filter: {} }));
    expect(again.number).toBe(n + 1);
  });
});

describe('webhook outbox', () => {
  it('nothing is queued for task events of a project without endpoints', async () => {
    const p = await project();
    const m = await member(p.accountId, 'translator');
    const n = (await json(await create(p, { name: 'x', kind: 'translate', language: 'de', filter: {}, assignees: [m.email] }))).number;
    await json(await t.call(p.apiKey, 'PATCH', `/v1/tasks/${n}`, { assignees: [] }));
    await json(await t.call(p.apiKey, 'PATCH', `/v1/tasks/${n}`, { assignees: [m.email], state: 'canceled' }));
    const [row] = await sql()<{ n: number }[]>`select count(*)::int as n from webhook_outbox where project_id = ${p.projectId}`;
    expect(row!.n).toBe(0);
  });
});
