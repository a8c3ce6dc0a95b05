// An endpoint that fails every attempt for WEBHOOKS_DISABLE_AFTER_SECONDS (here 1 s; 3 days by
// default) is disabled by tms: its state says why, a webhook.disabled domain event tells the
// project, new events are no longer queued for it, and enabling it again resumes what was pending.
// Also: a delivery still failing after WEBHOOKS_RETRY_WINDOW_SECONDS is marked failed.
import { afterEach, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '../support/webhook-receiver.ts';

const env = { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_RETRY_BASE_MS: '50', WEBHOOKS_DEBOUNCE_MS: '0', WEBHOOKS_POLL_MS: '50' };
// Disabled after 1 s of failures, while a delivery is retried for a minute.
const disabling = useTestApp({ env: { ...env, WEBHOOKS_DISABLE_AFTER_SECONDS: '1', WEBHOOKS_RETRY_WINDOW_SECONDS: '60' } });
// Retried for 1 s only, while the endpoint stays on.
const expiring = useTestApp({ env: { ...env, WEBHOOKS_DISABLE_AFTER_SECONDS: '3600', WEBHOOKS_RETRY_WINDOW_SECONDS: '1' } });
let t = disabling;

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

type Delivery = { id: string; status: string; attempts: number; last_status_code: number | null };
type Endpoint = { enabled: boolean; disabled_reason: string | null; disabled_at: string | null; failing_since: string | null };

async function setup(events: string[]) {
  const project = await t.newProject('team');
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const created = (await (await t.admin('POST', `/projects/${project.projectId}/webhooks`, { url: receiver.url(), events })).json()) as { id: string; secret: string };
  receiver.secret = created.secret;
  return { project, receiver, webhookId: created.id };
}
const endpoint = async (p: TestProject, id: string) => (await (await t.admin('GET', `/projects/${p.projectId}/webhooks/${id}`)).json()) as Endpoint;
const deliveries = async (p: TestProject, id: string) =>
  ((await (await t.admin('GET', `/projects/${p.projectId}/webhooks/${id}/deliveries`)).json()) as { deliveries: Delivery[] }).deliveries;

describe('continuous failures', () => {
  it('disable the endpoint and tell the project; enabling it again resumes the pending deliveries', async () => {
    t = disabling;
    const { project, receiver, webhookId } = await setup(['language.added']);
    receiver.mode = 'fail';
    await t.call(project.apiKey, 'POST', '/v1/languages', { code: 'de' });
    const disabled = await waitFor(async () => {
      const e = await endpoint(project, webhookId);
      return !e.enabled && e;
    }, 10_000, 'disabled');
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    expect(disabled.failing_since).not.toBeNull();
    const [event] = await t.runtime.deps.sql<{ actor_type: string; actor_id: string; after: { reason: string } }[]>`
      select actor_type, actor_id, after from domain_events where type = 'webhook.disabled' and entity_id = ${webhookId}`;
    expect(event).toMatchObject({ actor_type: 'system', actor_id: 'webhooks', after: { reason: 'failing' } });

    // Disabled: no attempt is made, and new events are not queued for it.
    const attemptsThen = receiver.received.length;
    await t.call(project.apiKey, 'POST', '/v1/languages', { code: 'fr' });
    await new Promise((r) => setTimeout(r, 400));
    expect(receiver.received.length).toBe(attemptsThen);
    const pending = await deliveries(project, webhookId);
    expect(pending).toHaveLength(1);

    // Back on, with a healthy receiver: the pending delivery goes out.
    receiver.mode = 'ok';
    const res = await t.admin('PATCH', `/projects/${project.projectId}/webhooks/${webhookId}`, { enabled: true });
    expect(await res.json()).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    await waitFor(async () => (await deliveries(project, webhookId))[0]?.status === 'succeeded', 10_000, 'resumed');
    expect(receiver.accepted().map((r) => r.verified!.data.language)).toEqual(['de']);
  });

  it('a delivery failing past the retry window is marked failed, and can then be replayed', async () => {
    t = expiring;
    const { project, receiver, webhookId } = await setup(['language.removed']);
    receiver.mode = 'fail';
    await t.call(project.apiKey, 'POST', '/v1/languages', { code: 'it' });
    await t.call(project.apiKey, 'DELETE', '/v1/languages/it');
    const [failed] = await waitFor(async () => {
      const all = await deliveries(project, webhookId);
      return all[0]?.status === 'failed' && all;
    }, 15_000, 'failed');
    expect(failed).toMatchObject({ status: 'failed', last_status_code: 500 });
    expect(failed!.attempts).toBeGreaterThanOrEqual(2);
    expect(await endpoint(project, webhookId)).toMatchObject({ enabled: true });
    receiver.mode = 'ok';
    expect((await t.admin('POST', `/projects/${project.projectId}/webhooks/${webhookId}/deliveries/${failed!.id}/replay`)).status).toBe(202);
    await waitFor(() => receiver.accepted().length === 1, 10_000, 'replayed');
    expect(receiver.accepted()[0]!.verified).toMatchObject({ type: 'language.removed', data: { language: 'it' } });
  });
});
