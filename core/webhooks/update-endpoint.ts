import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { UpdateWebhookCommand, type WebhookEndpoint } from './schemas.ts';
import { checkEndpointUrl, endpointColumns } from './endpoint-row.ts';
import { windowEnded, WINDOW_ENDED } from './prune-deliveries.ts';

/**
 * Changes an endpoint's url, events, description or enabled flag. Enabling, or a new url, clears the
 * failure state (a fresh start for the disable-after window); disabling by hand is told apart from
 * tms' own.
 */
export const updateWebhookEndpoint = useCase(UpdateWebhookCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'config'>, input): Promise<WebhookEndpoint> => {
  if (input.url !== undefined) await checkEndpointUrl(deps.config, input.url);
  return transaction(deps, async (tx) => {
    const [before] = await tx.sql<{ url: string; events: string[]; description: string | null; enabled: boolean }[]>`
      select url, events, description, enabled from webhook_endpoints
      where id = ${input.webhookId} and project_id = ${input.projectId} for update`;
    if (!before) throw notFound('Webhook endpoint not found');
    const enabled = input.enabled ?? before.enabled;
    const switched = enabled !== before.enabled;
    const [row] = await tx.sql<WebhookEndpoint[]>`
      update webhook_endpoints set
        url = ${input.url ?? before.url},
        events = ${input.events ?? before.events},
        description = ${input.description === undefined ? before.description : input.description},
        enabled = ${enabled},
        disabled_reason = ${enabled ? null : switched ? 'manual' : tx.sql`disabled_reason`},
        disabled_at = ${enabled ? null : switched ? tx.sql`now()` : tx.sql`disabled_at`},
        failing_since = ${(switched && enabled) || (input.url !== undefined && input.url !== before.url) ? null : tx.sql`failing_since`},
        updated_at = now()
      where id = ${input.webhookId}
      returning ${endpointColumns(tx.sql)}`;
    const moved = input.url !== undefined && input.url !== before.url;
    if (enabled && (switched || moved)) {
      // Back on, or a new address (a typo fixed): what waited is due now rather than at the end of a
      // backoff earned by the old state (and, on SQS, handed to the queue again by the next sweep);
      // what waited past its retry window is given up, as an attempt would have (prune-deliveries.ts).
      const ended = windowEnded(tx.sql, deps.config);
      await tx.sql`update webhook_deliveries set
                     status = case when ${ended} then 'failed' else status end,
                     last_error = case when ${ended} then coalesce(last_error, ${WINDOW_ENDED}) else last_error end,
                     next_attempt_at = case when ${ended} then null else now() end, queued_at = null
                   where endpoint_id = ${input.webhookId} and status = 'pending'`;
    }
    tx.record({
      type: 'webhook.updated',
      projectId: input.projectId,
      actor: input.actor,
      entity: { type: 'webhook', id: input.webhookId },
      before,
      after: { url: row!.url, events: row!.events, description: row!.description, enabled: row!.enabled },
    });
    return row!;
  });
});
