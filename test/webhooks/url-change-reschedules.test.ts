// A new URL for an endpoint (a typo fixed) makes its pending deliveries due now: the backoff they
// earned at the old address (8 hours after the 7th failure) must not hold them back from the new one,
// as enabling an endpoint again already does.
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '../support/webhook-receiver.ts';

const t = useTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_RETRY_BASE_MS: '50', WEBHOOKS_DEBOUNCE_MS: '0', WEBHOOKS_POLL_MS: '50' } });
const receivers: WebhookReceiver[] = [];
afterAll(async () => {
  for (const r of receivers) await r.close();
});

describe('an endpoint moved to a new URL', () => {
  it('gets its pending deliveries at once at the new address, not at the end of the old backoff', async () => {
    const project = await t.newProject('team');
    const [wrong, right] = [await startWebhookReceiver(), await startWebhookReceiver()];
    receivers.push(wrong, right);
    wrong.mode = 'fail';
    const created = (await (await t.admin('POST', `/projects/${project.projectId}/webhooks`, { url: wrong.url(), events: ['language.added'] })).json()) as { id: string; secret: string };
    right.secret = created.secret;
    expect((await t.call(project.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    await waitFor(() => wrong.received.length >= 1, 10_000, 'a failed attempt');
    // As after many failures: the next attempt hours away (set between attempts, not under one in
    // flight, whose failure would set its own next attempt).
    await waitFor(
      async () =>
        (
          await t.runtime.deps.sql`
            update webhook_deliveries set next_attempt_at = now() + interval '8 hours'
            where endpoint_id = ${created.id} and status = 'pending' and (lease_until is null or lease_until <= now()) returning id`
        ).length === 1,
      10_000,
      'the delivery between attempts',
    );
    const attempts = wrong.received.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(wrong.received.length).toBe(attempts);

    const res = await t.admin('PATCH', `/projects/${project.projectId}/webhooks/${created.id}`, { url: right.url() });
    expect(res.status).toBe(200);
    await waitFor(() => right.accepted().length === 1, 10_000, 'delivered at the new URL');
    expect(right.accepted()[0]!.verified).toMatchObject({ type: 'language.added', data: { language: 'de' } });
  });
});
