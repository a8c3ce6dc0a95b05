// Task webhooks (migration 042, core/webhooks/dispatch-outbox.ts): task.created with the task and its
// assignees, task.assigned naming only the people a change added, task.completed when it is marked
// done; each at once, never as translations.changed; a task deleted (or opened again) before its
// message went out is not announced. Runs on embedded PGlite, and on real Postgres with DATABASE_URL.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { QUICK_WEBHOOKS_ENV, receiversClosedAfterEach, waitFor, jsonAnswer as ok, registeredReceiver } from '../support/webhook-receiver.ts';
import { transaction } from '../../core/db/transaction.ts';
import { createTask } from '../../core/tasks/create-task.ts';
import { updateTask } from '../../core/tasks/update-task.ts';

const t = useTestApp({ env: QUICK_WEBHOOKS_ENV });
const receivers = receiversClosedAfterEach();
const hook = (project: TestProject, events: string[]) => registeredReceiver(t, project.projectId, events, receivers);
const sql = () => t.runtime.deps.sql;

let seq = 0;
async function member(p: TestProject, role: string): Promise<{ id: string; email: string }> {
  const email = `task-hook-${role}-${seq++}-${Date.now()}@example.com`;
  const [user] = await sql()<{ id: string }[]>`insert into users (email, password_hash) values (${email}, 'x') returning id`;
  await sql()`insert into memberships (user_id, account_id, role) values (${user!.id}, ${p.accountId}, ${role})`;
  return { id: user!.id, email };
}
async function projectWithKey(): Promise<{ p: TestProject; keyId: string }> {
  const p = await t.newProject('team');
  for (const code of ['en', 'de']) await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code }), 201);
  const key = (await ok(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'cart.checkout', group_name: 'cart' }), 201)) as { id: string };
  return { p, keyId: key.id };
}
const outboxDrained = async (p: TestProject) => {
  const n = async () => (await sql()<{ n: number }[]>`select count(*)::int as n from webhook_outbox where project_id = ${p.projectId}`)[0]!.n;
  for (let i = 0; i < 100 && (await n()) > 0; i++) await new Promise((r) => setTimeout(r, 50));
  expect(await n()).toBe(0);
};

describe('task webhooks', () => {
  it('task.created names the task and its assignees; task.assigned only the people added; task.completed when it is done', async () => {
    const { p, keyId } = await projectWithKey();
    const receiver = await hook(p, ['task.created', 'task.assigned', 'task.completed']);
    const changes = await hook(p, ['translations.changed']);
    const ana = await member(p, 'translator');
    const ben = await member(p, 'reviewer');
    await ok(await t.call(p.apiKey, 'POST', '/v1/tasks', { name: 'German for 2.3', kind: 'translate', language: 'de', filter: {}, assignees: [ana.email], due_date: '2026-12-31' }), 201);
    const [created] = await waitFor(() => receiver.accepted().length >= 1 && receiver.accepted(), 5_000, 'task.created');
    expect(created!.verified).toMatchObject({
      type: 'task.created',
      data: {
        project_id: p.projectId,
        task: { number: 1, name: 'German for 2.3', kind: 'translate', language: 'de', state: 'open', due_date: '2026-12-31', assignees: [{ user_id: ana.id, email: ana.email }], keys_total: 1, keys_done: 0 },
        actor: { type: 'api_key' },
      },
    });
    // Ben added, Ana kept: the message names Ben only. Then Ana removed: nothing is announced.
    await ok(await t.call(p.apiKey, 'PATCH', '/v1/tasks/1', { assignees: [ana.email, ben.email] }), 200);
    await ok(await t.call(p.apiKey, 'PATCH', '/v1/tasks/1', { assignees: [ben.email] }), 200);
    await ok(await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Zur Kasse', status: 'review' }), 200);
    await ok(await t.call(p.apiKey, 'PATCH', '/v1/tasks/1', { state: 'done' }), 200);
    await waitFor(() => receiver.accepted().length >= 3, 5_000, 'task.assigned and task.completed');
    await outboxDrained(p);
    await new Promise((r) => setTimeout(r, 300));
    // Deliveries go out side by side: their arrival order is not the events' order.
    const sent = receiver.accepted().map((r) => r.verified!);
    expect(sent.map((m) => m.type).sort()).toEqual(['task.assigned', 'task.completed', 'task.created']);
    const of = (type: string) => sent.find((m) => m.type === type)!;
    expect(of('task.assigned').data.assigned).toEqual([{ user_id: ben.id, email: ben.email }]);
    expect(of('task.completed').data.task).toMatchObject({ state: 'done', keys_done: 1, closed_by: { type: 'api_key' } });
    // A value was written meanwhile: that is a translations.changed, and the only one.
    await waitFor(() => changes.accepted().length >= 1, 5_000, 'translations.changed');
    expect(changes.accepted().map((r) => r.verified!.type)).toEqual(['translations.changed']);
  });

  it('a task deleted, or opened again, before its message went out is not announced', async () => {
    const { p, keyId } = await projectWithKey();
    const receiver = await hook(p, ['task.created', 'task.completed']);
    const actor = { type: 'api_key' as const, id: crypto.randomUUID() };
    // Created and deleted in one transaction: the outbox row commits, the task does not exist when sent.
    await transaction(t.runtime.deps, async (tx) => {
      await createTask({ ...t.runtime.deps, tx }, { projectId: p.projectId, name: 'Gone', kind: 'translate', language: 'de', key_ids: [keyId], actor });
      await tx.sql`delete from tasks where project_id = ${p.projectId}`;
    });
    await ok(await t.call(p.apiKey, 'POST', '/v1/tasks', { name: 'Stays', kind: 'translate', language: 'de', key_ids: [keyId] }), 201);
    await ok(await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Zur Kasse', status: 'approved' }), 200);
    // Marked done and opened again in one transaction: the task is open when the message would go.
    await transaction(t.runtime.deps, async (tx) => {
      await updateTask({ ...t.runtime.deps, tx }, { projectId: p.projectId, number: 2, state: 'done', actor });
      await updateTask({ ...t.runtime.deps, tx }, { projectId: p.projectId, number: 2, state: 'open', actor });
    });
    await waitFor(() => receiver.accepted().length >= 1, 5_000, 'the task that stays');
    await outboxDrained(p);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.accepted().map((r) => [r.verified!.type, (r.verified!.data.task as { name: string }).name])).toEqual([['task.created', 'Stays']]);
  });
});
