import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { WebhookCommand } from './schemas.ts';

/** Deletes an endpoint with its delivery log; nothing more is sent to it, even an attempt under way finishes unrecorded. */
export const deleteWebhookEndpoint = useCase(WebhookCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<void> =>
  transaction(deps, async (tx) => {
    const [row] = await tx.sql<{ url: string; events: string[] }[]>`
      delete from webhook_endpoints where id = ${input.webhookId} and project_id = ${input.projectId} returning url, events`;
    if (!row) throw notFound('Webhook endpoint not found');
    tx.record({ type: 'webhook.deleted', projectId: input.projectId, actor: input.actor, entity: { type: 'webhook', id: input.webhookId }, before: row });
  }),
);
