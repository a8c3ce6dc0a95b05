import type { Deps } from '../deps.ts';
import { conflict, notFound } from '../errors.ts';
import { useCase } from '../use-case.ts';
import { ReplayDeliveryCommand, type WebhookDelivery } from './schemas.ts';
import { selectDeliveries } from './read-endpoints.ts';

/**
 * Sends a delivered or failed message again: a new delivery (its own log entry and attempts) with
 * the same body and webhook-id, since it is the same event. A pending one is already being retried
 * (409), and a disabled endpoint must be enabled first (409).
 */
export const replayWebhookDelivery = useCase(ReplayDeliveryCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<WebhookDelivery> => {
  const [original] = await deps.sql<{ status: string; enabled: boolean }[]>`
    select d.status, w.enabled from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
    where d.id = ${input.deliveryId} and d.endpoint_id = ${input.webhookId} and w.project_id = ${input.projectId}`;
  if (!original) throw notFound('Webhook delivery not found');
  if (original.status === 'pending') throw conflict('This delivery is still pending: it is retried automatically');
  if (!original.enabled) throw conflict('The endpoint is disabled: enable it (PATCH enabled: true) before replaying');
  const [row] = await deps.sql<{ id: string }[]>`
    insert into webhook_deliveries (endpoint_id, project_id, message_id, event_type, body, replay_of)
    select endpoint_id, project_id, message_id, event_type, body, id from webhook_deliveries where id = ${input.deliveryId}
    returning id`;
  const [created] = await selectDeliveries(deps.sql, deps.sql`id = ${row!.id}`, 1);
  return created!;
});
