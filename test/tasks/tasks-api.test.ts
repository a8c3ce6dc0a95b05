// Tasks through the API (docs/decisions.md, "Tasks"): created over keys by id or by filter, the keys
// already done left out; progress counted from the values as they change (review, approval, a source
// change making a value outdated, a key in the trash); assignees by email, refused when they may not
// do the work, pruned when their role or languages change; closed done only when every key is done;
// the keys listing filtered by task; bad input a 4xx that writes nothing; another project's never seen.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { json, taskProject, type TaskTestProject } from './support/task-project.ts';
import { changeRole, removeMember } from '../../core/users/members.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;

type Project = TaskTestProject;
const project = (names = ['a', 'b', 'c', 'd']): Promise<Project> => taskProject(t, { names, groupOf: (name) => (name === 'd' ? 'other' : 'main') });
const put = async (p: Project, key: string, language: string, value: string, status: string) =>
  json(await t.call(p.apiKey, 'PUT', `/v1/keys/${p.keys[key]}/translations/${language}`, { value, status }));
let seq = 0;
async function member(p: TestProject, role: string, languages: string[] | null = null): Promise<{ id: string; email: string }> {
  const email = `${role}-${seq++}-${Date.now()}@example.com`;
  const [user] = await sql()<{ id: string }[]>`insert into users (email, password_hash) values (${email}, 'x') returning id`;
  await sql()`insert into memberships (user_id, account_id, role, languages) values (${user!.id}, ${p.accountId}, ${role}, ${languages})`;
  return { id: user!.id, email };
}
const create = (p: TestProject, body: unknown) => t.call(p.apiKey, 'POST', '/v1/tasks', body);
const task = async (p: TestProject, n: number) => json(await t.call(p.apiKey, 'GET', `/v1/tasks/${n}`));
const patch = (p: TestProject, n: number, body: unknown) => t.call(p.apiKey, 'PATCH', `/v1/tasks/${n}`, body);
const taskCount = async (p: TestProject) => (await sql()<{ n: number }[]>`select count(*)::int as n from tasks where project_id = ${p.projectId}`)[0]!.n;

describe('tasks', () => {
  it('is created over keys by filter, leaving out those already done, and counts its progress from the values', async () => {
    const p = await project();
    await put(p, 'a', 'de', 'A', 'review'); // done for a translate task
    await put(p, 'b', 'de', 'B', 'draft'); // not done
    const translator = await member(p, 'translator', ['de']);
    const res = await create(p, { name: 'German for main', kind: 'translate', language: 'de', filter: { group: 'main' }, assignees: [translator.email.toUpperCase()], due_date: '2026-12-31' });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({
      number: 1, name: 'German for main', description: '', kind: 'translate', language: 'de', state: 'open', due_date: '2026-12-31',
      assignees: [{ user_id: translator.id, email: translator.email }], keys_total: 2, keys_done: 0, keys_left_out_done: 1,
      created_by: { type: 'api_key', id: p.apiKeyId }, closed_at: null, closed_by: null,
    });
    const keys = await json(await t.call(p.apiKey, 'GET', '/v1/tasks/1/keys'));
    expect(keys.data.map((k: { key: string; status: string | null; done: boolean }) => [k.key, k.status, k.done])).toEqual([['b', 'draft', false], ['c', null, false]]);

    await put(p, 'b', 'de', 'B', 'review');
    expect(await task(p, 1)).toMatchObject({ keys_total: 2, keys_done: 1 });
    // Not done yet: closing is refused, naming what is left.
    const early = await patch(p, 1, { state: 'done' });
    expect(early.status).toBe(409);
    expect((await early.json()).detail).toMatch(/1 of its 2 keys are still to translate/);
    await put(p, 'c', 'de', 'C', 'approved');
    expect(await task(p, 1)).toMatchObject({ keys_done: 2 });
    // The source changes: c's German is outdated, so not done any more.
    await put(p, 'c', 'en', 'Source c, longer', 'approved');
    expect(await task(p, 1)).toMatchObject({ keys_done: 1 });
    const listed = await json(await t.call(p.apiKey, 'GET', '/v1/tasks/1/keys?done=false'));
    expect(listed.data).toEqual([{ key_id: p.keys.c, key: 'c', group_name: 'main', status: 'approved', outdated: true, done: false }]);
    await put(p, 'c', 'de', 'C, longer', 'review');
    const done = await json(await patch(p, 1, { state: 'done' }));
    expect(done).toMatchObject({ state: 'done', keys_done: 2, closed_by: { type: 'api_key', id: p.apiKeyId } });
    expect(done.closed_at).toMatch(/Z$/);
    // A closed task's keys are not changed until it is open again.
    expect((await patch(p, 1, { add_keys: [p.keys.d] })).status).toBe(409);
    const reopened = await json(await patch(p, 1, { state: 'open', add_keys: [p.keys.d] }));
    expect(reopened).toMatchObject({ state: 'open', keys_total: 3, keys_done: 2, closed_at: null, closed_by: null });
    const events = await sql()<{ type: string; after: { number: number } }[]>`
      select type, after from domain_events where project_id = ${p.projectId} and type like 'task.%' order by id`;
    expect(events.map((e) => e.type)).toEqual(['task.created', 'task.completed', 'task.reopened']);
    expect(events.every((e) => e.after.number === 1)).toBe(true);
  });

  it('is a review task over keys by id; approving is what makes a key done; a key in the trash is left out', async () => {
    const p = await project();
    await put(p, 'a', 'fr', 'A', 'review');
    await put(p, 'b', 'fr', 'B', 'review');
    const created = await json(await create(p, { name: 'Review French', kind: 'review', language: 'fr', key_ids: [p.keys.a, p.keys.b, p.keys.a] }));
    expect(created).toMatchObject({ number: 1, keys_total: 2, keys_done: 0 });
    await put(p, 'a', 'fr', 'A', 'approved');
    expect(await task(p, 1)).toMatchObject({ keys_total: 2, keys_done: 1 });
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${p.keys.b}`)).status).toBeLessThan(300);
    expect(await task(p, 1)).toMatchObject({ keys_total: 1, keys_done: 1 });
    expect(await json(await patch(p, 1, { state: 'done' }))).toMatchObject({ state: 'done' });
    // The keys listing filters by task, as the editor does.
    const second = await json(await create(p, { name: 'Next', kind: 'translate', language: 'de', key_ids: [p.keys.c, p.keys.d] }));
    expect(second.number).toBe(2);
    const listed = await json(await t.call(p.apiKey, 'GET', '/v1/keys?task=2'));
    expect(listed.keys.map((k: { key: string }) => k.key)).toEqual(['c', 'd']);
    expect((await json(await t.call(p.apiKey, 'GET', '/v1/keys?task=99'))).keys).toEqual([]);
  });

  it('takes as assignees only members who may do the work, and lets go of those who no longer may', async () => {
    const p = await project();
    const translator = await member(p, 'translator');
    const reviewerDe = await member(p, 'reviewer', ['de']);
    const owner = await member(p, 'owner');
    const other = await t.newProject('team');
    const stranger = await member(other, 'developer');
    const refused = await create(p, { name: 'R', kind: 'review', language: 'fr', filter: {}, assignees: [translator.email, reviewerDe.email, stranger.email, owner.email] });
    expect(refused.status).toBe(422);
    const issues = (await refused.json()).detail;
    expect(issues.map((i: { loc: unknown[] }) => i.loc)).toEqual([['body', 'assignees', 0], ['body', 'assignees', 1], ['body', 'assignees', 2]]);
    expect(issues[0].msg).toMatch(/translator\) may not approve values in fr/);
    expect(issues[2].msg).toMatch(/not a member of this project's account/);
    expect(await taskCount(p)).toBe(0);

    await json(await create(p, { name: 'T', kind: 'translate', language: 'de', filter: {}, assignees: [translator.email, reviewerDe.email, owner.email] }));
    await json(await create(p, { name: 'R', kind: 'review', language: 'de', filter: {}, assignees: [reviewerDe.email] }));
    // The reviewer becomes a translator: the review task is no longer theirs, the translate one is.
    await changeRole(t.runtime.deps, { accountId: p.accountId, userId: owner.id, memberId: reviewerDe.id, role: 'translator', languages: ['de'] });
    expect((await task(p, 2)).assignees).toEqual([]);
    expect((await task(p, 1)).assignees.map((a: { email: string }) => a.email)).toContain(reviewerDe.email);
    // Limited to French: the German task is not theirs either.
    await changeRole(t.runtime.deps, { accountId: p.accountId, userId: owner.id, memberId: reviewerDe.id, role: 'translator', languages: ['fr'] });
    expect((await task(p, 1)).assignees.map((a: { email: string }) => a.email)).not.toContain(reviewerDe.email);
    await removeMember(t.runtime.deps, { accountId: p.accountId, userId: owner.id, memberId: translator.id });
    expect((await task(p, 1)).assignees.map((a: { email: string }) => a.email)).toEqual([owner.email]);
    // The list filters by assignee.
    const mine = await json(await t.call(p.apiKey, 'GET', `/v1/tasks?assignee=${encodeURIComponent(owner.email)}`));
    expect(mine.data.map((x: { number: number }) => x.number)).toEqual([1]);
  });

  it('refuses bad input with a 4xx that writes nothing', async () => {
    const p = await project();
    await put(p, 'a', 'de', 'A', 'approved');
    const cases: [unknown, number, RegExp][] = [
      [{ name: 'x', kind: 'translate', language: 'de' }, 422, /key_ids or filter/],
      [{ name: 'x', kind: 'translate', language: 'de', key_ids: [], }, 422, /at least one key/],
      [{ name: 'x', kind: 'translate', language: 'ja', filter: {} }, 422, /ja is not a language of this project/],
      [{ name: 'x', kind: 'proofread', language: 'de', filter: {} }, 422, /translate or review/],
      [{ name: '  ', kind: 'translate', language: 'de', filter: {} }, 422, /name/],
      [{ name: 'x', kind: 'translate', language: 'de', filter: {}, due_date: '2026-02-30' }, 422, /not a day/],
      [{ name: 'x', kind: 'translate', language: 'de', key_ids: ['00000000-0000-4000-8000-000000000000'] }, 422, /is not a key of this project/],
      [{ name: 'x', kind: 'translate', language: 'de', filter: { group: 'nothing' } }, 422, /no key matches/],
      [{ name: 'x', kind: 'translate', language: 'de', key_ids: [p.keys.a] }, 422, /already done in de/],
      [{ name: 'x', kind: 'translate', language: 'de', filter: [] }, 422, /filter must be an object/],
    ];
    for (const [body, status, message] of cases) {
      const res = await create(p, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(JSON.stringify(await res.json()), JSON.stringify(body)).toMatch(message);
    }
    expect(await taskCount(p)).toBe(0);
    // include_done takes it; the next number is 1: refusals took none.
    expect((await json(await create(p, { name: 'x', kind: 'translate', language: 'de', key_ids: [p.keys.a], include_done: true }))).number).toBe(1);
    expect((await patch(p, 1, {})).status).toBe(422);
    expect((await patch(p, 1, { state: 'finished' })).status).toBe(422);
    expect((await patch(p, 2, { name: 'y' })).status).toBe(404);
    expect((await t.call(p.apiKey, 'GET', '/v1/tasks/0')).status).toBe(422);
    expect((await t.call(p.apiKey, 'GET', '/v1/tasks/abc')).status).toBe(422);
    expect((await t.call(p.apiKey, 'GET', '/v1/tasks?state=closed')).status).toBe(422);
  });

  it('is never seen or touched from another project', async () => {
    const p = await project();
    const q = await project();
    await json(await create(p, { name: 'Mine', kind: 'translate', language: 'de', filter: {} }));
    expect((await t.call(q.apiKey, 'GET', '/v1/tasks/1')).status).toBe(404);
    expect((await t.call(q.apiKey, 'PATCH', '/v1/tasks/1', { name: 'Theirs' })).status).toBe(404);
    expect((await t.call(q.apiKey, 'DELETE', '/v1/tasks/1')).status).toBe(404);
    expect((await json(await t.call(q.apiKey, 'GET', '/v1/tasks'))).data).toEqual([]);
    // Another project's key is not a key of this one.
    const res = await create(q, { name: 'x', kind: 'translate', language: 'de', key_ids: [p.keys.a] });
    expect(res.status).toBe(422);
    expect((await task(p, 1)).name).toBe('Mine');
  });

  it('leaves out keys already in an open task of the same kind and language, unless include_tasked; a dry run writes nothing', async () => {
    const p = await project();
    await json(await create(p, { name: 'First', kind: 'translate', language: 'de', key_ids: [p.keys.a, p.keys.b] }));
    // A dry run: the counts and assignees as a create would have them, no task, no number taken.
    const owner = await member(p, 'owner');
    const dry = await create(p, { name: 'Second', kind: 'translate', language: 'de', filter: {}, assignees: [owner.email], dry_run: true });
    expect(dry.status).toBe(200);
    expect(await dry.json()).toEqual({ dry_run: true, kind: 'translate', language: 'de', keys_total: 2, keys_left_out_done: 0, keys_left_out_in_tasks: 2, assignees: [{ user_id: owner.id, email: owner.email }] });
    expect(await taskCount(p)).toBe(1);
    // A dry run is refused as a create is, with nothing written.
    const refusedDry = await create(p, { name: 'x', kind: 'translate', language: 'de', filter: {}, assignees: ['nobody@example.com'], dry_run: true });
    expect(refusedDry.status).toBe(422);
    const second = await json(await create(p, { name: 'Second', kind: 'translate', language: 'de', filter: {} }));
    expect(second).toMatchObject({ number: 2, keys_total: 2, keys_left_out_done: 0, keys_left_out_in_tasks: 2 });
    expect((await json(await t.call(p.apiKey, 'GET', '/v1/tasks/2/keys'))).data.map((k: { key: string }) => k.key)).toEqual(['c', 'd']);
    // Every key is now in an open translate task of de: a third is refused, saying why.
    const third = await create(p, { name: 'Third', kind: 'translate', language: 'de', filter: {} });
    expect(third.status).toBe(422);
    expect(JSON.stringify(await third.json())).toMatch(/4 in open translate tasks of de \(include_tasked takes them\)/);
    // Another kind, another language, include_tasked, or the first task closed: the keys are free again.
    expect((await json(await create(p, { name: 'Review', kind: 'review', language: 'de', filter: {}, include_done: true }))).keys_total).toBe(4);
    expect((await json(await create(p, { name: 'French', kind: 'translate', language: 'fr', filter: {} }))).keys_total).toBe(4);
    expect((await json(await create(p, { name: 'Again', kind: 'translate', language: 'de', filter: {}, include_tasked: true }))).keys_total).toBe(4);
    await json(await patch(p, 1, { state: 'canceled' }));
    await json(await patch(p, 5, { state: 'canceled' }));
    expect(await json(await create(p, { name: 'Freed', kind: 'translate', language: 'de', filter: {} }))).toMatchObject({ number: 6, keys_total: 2, keys_left_out_in_tasks: 2 });
  });

  it('is deleted with its language, and on its own; its number is not reused', async () => {
    const p = await project();
    await json(await create(p, { name: 'French', kind: 'translate', language: 'fr', filter: {} }));
    await json(await create(p, { name: 'German', kind: 'translate', language: 'de', filter: {} }));
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/fr')).status).toBeLessThan(300);
    expect((await t.call(p.apiKey, 'GET', '/v1/tasks/1')).status).toBe(404);
    expect((await t.call(p.apiKey, 'DELETE', '/v1/tasks/2')).status).toBe(204);
    expect((await json(await create(p, { name: 'Again', kind: 'translate', language: 'de', filter: {} }))).number).toBe(3);
    const list = await json(await t.call(p.apiKey, 'GET', '/v1/tasks?limit=1'));
    expect(list).toMatchObject({ data: [{ number: 3 }], next_cursor: null });
  });
});
