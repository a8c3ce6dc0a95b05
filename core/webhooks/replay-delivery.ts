import type { Deps } from '../deps.ts';
import { conflict, notFound } from '../errors.ts';
import { useCase } from '../use-case.ts';
import { transaction } from '../db/transaction.ts';
import { ReplayDeliveryCommand, type WebhookDelivery } from './schemas.ts';
import { selectDeliveries } from './read-endpoints.ts';

/**
 * Sends a delivered or failed message again: a new delivery (its own log entry and attempts) with
 * the same body and webhook-id, since it is the same event. A pending one is already being retried
 * (409), and a disabled endpoint must be enabled first (409).
 */
export const replayWebhookDelivery = useCase(ReplayDeliveryCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<WebhookDelivery> => {
  const id = await transaction(deps, async (tx) => {
    const [original] = await tx.sql<{ status: string; enabled: boolean }[]>`
      select d.status, w.enabled from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
      where d.id = ${input.deliveryId} and d.endpoint_id = ${input.webhookId} and w.project_id = ${input.projectId}
      for update of w`;
    if (!original) throw notFound('Webhook delivery not found');
    if (original.status === 'pending') throw conflict('This delivery is still pending: it is retried automatically');
    if (!original.enabled) throw conflict('The endpoint is disabled: enable it (PATCH enabled: true) before replaying');
    const [row] = await tx.sql<{ id: string; message_id: string }[]>`
      insert into webhook_deliveries (endpoint_id, project_id, message_id, event_type, body, replay_of)
      select endpoint_id, project_id, message_id, event_type, body, id from webhook_deliveries where id = ${input.deliveryId}
      returning id, message_id`;
    tx.record({
      type: 'webhook.replayed',
      projectId: input.projectId,
      actor: input.actor,
      entity: { type: 'webhook', id: input.webhookId },
      after: { delivery_id: row!.id, replay_of: input.deliveryId, message_id: row!.message_id },
  });
  return row!.id;
  });
  const [created] = await selectDeliveries(deps.sql, deps.sql`id = ${id}`, 1);
  return created!;
});
