// The webhook worker's slots are shared: one endpoint that hangs holds at most two of them
// (ENDPOINT_IN_FLIGHT), and one project's endpoints at most half of a worker's eight, so another
// project's event goes out while they hang, not after their timeouts.
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresWebhookWorker } from '../../core/adapters/webhook-worker-postgres.ts';
import { useTestApp } from '../support/test-app.ts';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '../support/webhook-receiver.ts';

const TIMEOUT_MS = 4_000;
const t = useTestApp({
  env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_DEBOUNCE_MS: '0', WEBHOOKS_POLL_MS: '20', WEBHOOKS_TIMEOUT_MS: String(TIMEOUT_MS) },
});
const receivers: WebhookReceiver[] = [];

afterAll(async () => {
  for (const r of receivers) await r.close();
});

async function receiver(mode: WebhookReceiver['mode']) {
  const r = await startWebhookReceiver();
  r.mode = mode;
  receivers.push(r);
  return r;
}

async function endpoint(projectId: string, url: string) {
  const response = await t.admin('POST', `/projects/${projectId}/webhooks`, { url, events: ['language.added'] });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; secret: string };
}

async function addLanguages(apiKey: string, codes: string[]) {
  for (const code of codes) expect((await t.call(apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('webhook deliveries share the worker fairly', () => {
  it('sends at most two attempts at once to one endpoint, however many are due', async () => {
    const hanging = await receiver('hang');
    const p = await t.newProject('business');
    await endpoint(p.projectId, hanging.url('/one'));
    await addLanguages(p.apiKey, ['de', 'fr', 'it', 'es', 'nl', 'pt']);
    await waitFor(() => hanging.received.length >= 2, 10_000, 'two attempts');
    await pause(600);
    // Six deliveries are due and six slots are free: the endpoint still gets two at a time.
    expect(hanging.received).toHaveLength(2);

    // And a worker does not poll in a loop for deliveries it may not take yet: it sleeps until an
    // attempt ends or its poll interval passes (one look a second here, a few statements a look; a loop would make hundreds).
    let queries = 0;
    const sql = t.runtime.deps.sql;
    const counted = new Proxy(sql, { apply: (target, self, args) => (queries++, Reflect.apply(target, self, args)) });
    const worker = createPostgresWebhookWorker({ deps: { ...t.runtime.deps, sql: counted }, pollMs: 1_000, workerId: 'counted' });
    await pause(1_500);
    await worker.drain();
    expect(queries).toBeLessThan(40);
    expect(hanging.received).toHaveLength(2);
  });

  it("gives another project's event a slot while one project's endpoints hang", async () => {
    const hanging = await receiver('hang');
    const healthy = await receiver('ok');
    const a = await t.newProject('business');
    for (let i = 0; i < 5; i++) await endpoint(a.projectId, hanging.url(`/a${i}`));
    await addLanguages(a.apiKey, ['de', 'fr']);
    // Ten deliveries due on five endpoints (two each would be ten attempts): the project gets four.
    await waitFor(() => hanging.received.length >= 4, 10_000, "project A's attempts");
    await pause(600);
    expect(hanging.received).toHaveLength(4);

    const b = await t.newProject('business');
    healthy.secret = (await endpoint(b.projectId, healthy.url('/b'))).secret;
    const started = Date.now();
    await addLanguages(b.apiKey, ['de']);
    await waitFor(() => healthy.accepted().length >= 1, TIMEOUT_MS - 500, "project B's delivery");
    // Well before any of A's attempts could time out and free a slot.
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS / 2);
    expect(healthy.accepted()[0]!.verified!.data['language']).toBe('de');
  });
});
