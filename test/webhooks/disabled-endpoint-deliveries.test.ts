// A delivery's retry window was judged only after a failed attempt, and the worker never attempts
// deliveries of a disabled endpoint (claimDueDeliveries: `where w.enabled`): one pending when its
// endpoint was turned off stayed pending for good (never failed, never pruned, its whole signed body
// kept) and, when the endpoint was enabled again, even months later, was sent as if new. The prune
// and the re-enable now give such deliveries up (core/webhooks/prune-deliveries.ts).
import { afterAll, describe, expect, it, vi } from 'vitest';
import { pruneDeliveries } from '../../core/webhooks/prune-deliveries.ts';
import { useTestApp } from '../support/test-app.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const t = useTestApp({
  env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_RETENTION_DAYS: '30', WEBHOOKS_RETRY_WINDOW_SECONDS: '86400', WEBHOOKS_POLL_MS: '50' },
});
let receiver: WebhookReceiver | undefined;
afterAll(async () => receiver?.close());

describe('a delivery pending when its endpoint was disabled', () => {
  it('ends with its retry window (then is pruned) instead of staying pending and being sent 40 days later', async () => {
    receiver = await startWebhookReceiver();
    const p = await t.newProject('business');
    const created = await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: receiver.url(), events: ['cache.rebuilt'] });
    expect(created.status).toBe(201);
    const { id: endpointId } = (await created.json()) as { id: string };
    // Turned off by hand (or by tms after failing) while a delivery waited for its next attempt.
    expect((await t.admin('PATCH', `/projects/${p.projectId}/webhooks/${endpointId}`, { enabled: false })).status).toBe(200);
    const sql = t.runtime.deps.sql;
    await sql`
      insert into webhook_deliveries (endpoint_id, project_id, message_id, event_type, body, status, attempts, next_attempt_at, created_at)
      values (${endpointId}, ${p.projectId}, 'msg_old', 'cache.rebuilt', '{"type":"cache.rebuilt","timestamp":"40 days ago","data":{}}', 'pending', 3,
              now() - interval '39 days', now() - interval '40 days')`;

    // 40 days on: past the 1-day retry window and the 30-day retention.
    await pruneDeliveries(t.runtime.deps);
    const [afterPrune] = await sql<{ status: string }[]>`select status from webhook_deliveries where endpoint_id = ${endpointId}`;

    // The endpoint is enabled again: the 40-day-old message goes out.
    expect((await t.admin('PATCH', `/projects/${p.projectId}/webhooks/${endpointId}`, { enabled: true })).status).toBe(200);
    for (let i = 0; i < 60 && receiver.received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));

    expect({ afterPrune: afterPrune?.status ?? 'pruned', receivedByEndpoint: receiver.received.length }).toEqual({ afterPrune: 'pruned', receivedByEndpoint: 0 });
  });
});

describe('an endpoint turned on again before the prune ran', () => {
  it('gives up what waited past its retry window and sends what is still within it', async () => {
    const rx = await startWebhookReceiver();
    try {
      const p = await t.newProject('business');
      const created = await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: rx.url(), events: ['cache.rebuilt'] });
      const { id: endpointId, secret } = (await created.json()) as { id: string; secret: string };
      rx.secret = secret;
      expect((await t.admin('PATCH', `/projects/${p.projectId}/webhooks/${endpointId}`, { enabled: false })).status).toBe(200);
      const sql = t.runtime.deps.sql;
      for (const [message, age] of [['msg_stale', '2 days'], ['msg_fresh', '1 hour']] as const) {
        await sql`
          insert into webhook_deliveries (endpoint_id, project_id, message_id, event_type, body, status, attempts, next_attempt_at, created_at)
          values (${endpointId}, ${p.projectId}, ${message}, 'cache.rebuilt', '{"type":"cache.rebuilt","data":{}}', 'pending', 1,
                  now() + interval '1 hour', now() - ${age}::interval)`;
      }
      expect((await t.admin('PATCH', `/projects/${p.projectId}/webhooks/${endpointId}`, { enabled: true })).status).toBe(200);
      // Until the worker has recorded the fresh one's answer (the receiver has it a moment before).
      await vi.waitFor(
        async () => expect((await sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpointId} and status = 'pending'`)[0]!.n).toBe(0),
        { timeout: 10_000 },
      );
      const rows = await sql<{ message_id: string; status: string; last_error: string | null }[]>`
        select message_id, status, last_error from webhook_deliveries where endpoint_id = ${endpointId} order by message_id`;
      expect(rows.map((r) => [r.message_id, r.status])).toEqual([
        ['msg_fresh', 'succeeded'],
        ['msg_stale', 'failed'],
      ]);
      expect(rows[1]!.last_error).toMatch(/retry window ended/);
      expect(rx.received.map((r) => r.headers['webhook-id'])).toEqual(['msg_fresh']);
    } finally {
      await rx.close();
    }
  });
});
