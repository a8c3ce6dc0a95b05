import type { Deps } from '../deps.ts';
import { conflict, notFound } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { CreateWebhookCommand, MAX_ENDPOINTS_PER_PROJECT, type CreatedWebhookEndpoint, type WebhookEndpoint } from './schemas.ts';
import { checkEndpointUrl, endpointColumns } from './endpoint-row.ts';
import { newSigningSecret } from './signature.ts';

/** Registers an endpoint; the answer carries its signing secret, shown this once. */
export const createWebhookEndpoint = useCase(
  CreateWebhookCommand,
  async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'config'>, input): Promise<CreatedWebhookEndpoint> => {
    // Resolved before the transaction: a slow DNS answer holds no lock.
    await checkEndpointUrl(deps.config, input.url);
    const secret = newSigningSecret();
    return transaction(deps, async (tx) => {
      // Locks the project row: two concurrent creations cannot both pass the count.
      const [project] = await tx.sql`select 1 from projects where id = ${input.projectId} for update`;
      if (!project) throw notFound('Project not found');
      const [count] = await tx.sql<{ n: number }[]>`select count(*)::int as n from webhook_endpoints where project_id = ${input.projectId}`;
      if (count!.n >= MAX_ENDPOINTS_PER_PROJECT) throw conflict(`A project has at most ${MAX_ENDPOINTS_PER_PROJECT} webhook endpoints`);
      const [row] = await tx.sql<WebhookEndpoint[]>`
        insert into webhook_endpoints (project_id, url, description, events, secret)
        values (${input.projectId}, ${input.url}, ${input.description ?? null}, ${input.events}, ${secret})
        returning ${endpointColumns(tx.sql)}`;
      tx.record({
        type: 'webhook.created',
        projectId: input.projectId,
        actor: input.actor,
        entity: { type: 'webhook', id: row!.id },
        after: { url: row!.url, events: row!.events },
      });
      return { ...row!, secret };
    });
  },
);
