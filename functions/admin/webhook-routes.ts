// Webhook endpoints of a project, under the admin API (Bearer TMS_ADMIN_TOKEN; mounted by routes.ts
// behind its adminAuth). Every path names the project: an endpoint or delivery of another project
// is a 404, as an unknown id.
import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { describe } from '../http/describe.ts';
import { noBody, requireJsonBody, validBody, validParams, validQuery } from '../http/validate.ts';
import { Uuid } from '../../core/validation.ts';
import { DEFAULT_PAGE_SIZE } from '../../core/accounts/page-cursor.ts';
import { ADMIN } from '../../core/actor.ts';
import {
  CreatedWebhookEndpoint,
  CreateWebhookInput,
  DeliveryQuery,
  UpdateWebhookInput,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
} from '../../core/webhooks/schemas.ts';
import { createWebhookEndpoint } from '../../core/webhooks/create-endpoint.ts';
import { updateWebhookEndpoint } from '../../core/webhooks/update-endpoint.ts';
import { deleteWebhookEndpoint } from '../../core/webhooks/delete-endpoint.ts';
import { getWebhookEndpoint, listWebhookDeliveries, listWebhookEndpoints } from '../../core/webhooks/read-endpoints.ts';
import { replayWebhookDelivery } from '../../core/webhooks/replay-delivery.ts';

const tag = 'Admin';
const auth = 'admin' as const;
const ProjectParam = v.object({ project_id: Uuid });
const WebhookParam = v.object({ project_id: Uuid, webhook_id: Uuid });
const DeliveryParam = v.object({ project_id: Uuid, webhook_id: Uuid, delivery_id: Uuid });

export const webhookRoutes = new Hono<AppEnv>()
  .post(
    '/projects/:project_id/webhooks',
    describe({
      operationId: 'createWebhook',
      tag,
      auth,
      body: 'json',
      summary: 'Register a webhook endpoint',
      description:
        'Events: cache.rebuilt, translations.changed, language.added, language.removed. The answer carries the signing secret ' +
        '(whsec_...), shown this once: deliveries are signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature). ' +
        'URLs on private, loopback or link-local addresses are refused unless the server allows them.',
      responses: { 201: CreatedWebhookEndpoint, 404: null, 409: null },
    }),
    validParams(ProjectParam),
    requireJsonBody(),
    validBody(CreateWebhookInput),
    async (c) => c.json(await createWebhookEndpoint(c.get('deps'), { actor: ADMIN, projectId: c.req.valid('param').project_id, ...c.req.valid('json') }), 201),
  )
  .get(
    '/projects/:project_id/webhooks',
    describe({ operationId: 'listWebhooks', tag, auth, summary: "List a project's webhook endpoints", responses: { 200: WebhookEndpointList, 404: null } }),
    validParams(ProjectParam),
    async (c) => c.json(await listWebhookEndpoints(c.get('deps'), { projectId: c.req.valid('param').project_id })),
  )
  .get(
    '/projects/:project_id/webhooks/:webhook_id',
    describe({ operationId: 'getWebhook', tag, auth, summary: 'Read a webhook endpoint (never its secret)', responses: { 200: WebhookEndpoint, 404: null } }),
    validParams(WebhookParam),
    async (c) => {
      const { project_id, webhook_id } = c.req.valid('param');
      return c.json(await getWebhookEndpoint(c.get('deps'), { projectId: project_id, webhookId: webhook_id }));
    },
  )
  .patch(
    '/projects/:project_id/webhooks/:webhook_id',
    describe({
      operationId: 'updateWebhook',
      tag,
      auth,
      body: 'json',
      summary: "Change a webhook endpoint's url, events, description, or turn it on or off",
      description: 'Turning an endpoint on again (enabled: true) clears its failure state; deliveries still pending resume.',
      responses: { 200: WebhookEndpoint, 404: null },
    }),
    validParams(WebhookParam),
    requireJsonBody(),
    validBody(UpdateWebhookInput),
    async (c) => {
      const { project_id, webhook_id } = c.req.valid('param');
      return c.json(await updateWebhookEndpoint(c.get('deps'), { actor: ADMIN, projectId: project_id, webhookId: webhook_id, ...c.req.valid('json') }));
    },
  )
  .delete(
    '/projects/:project_id/webhooks/:webhook_id',
    describe({ operationId: 'deleteWebhook', tag, auth, body: 'none', summary: 'Delete a webhook endpoint and its delivery log', responses: { 204: null, 404: null } }),
    validParams(WebhookParam),
    noBody(),
    async (c) => {
      const { project_id, webhook_id } = c.req.valid('param');
      await deleteWebhookEndpoint(c.get('deps'), { actor: ADMIN, projectId: project_id, webhookId: webhook_id });
      return c.body(null, 204);
    },
  )
  .get(
    '/projects/:project_id/webhooks/:webhook_id/deliveries',
    describe({
      operationId: 'listWebhookDeliveries',
      tag,
      auth,
      summary: "An endpoint's delivery log, newest first",
      description:
        'Each delivery: its status (pending, succeeded, failed), attempts, the last response code and error, when the next attempt is due, ' +
        'and message_id, the webhook-id header it was sent with. Query: status filters; limit (1 to 200, default 50) is the page size; ' +
        'cursor is the previous page\'s next_cursor (null on the last page): pages go back in time by (created_at, id), so every failed ' +
        'delivery can be listed and replayed. Finished deliveries are kept WEBHOOKS_RETENTION_DAYS (30).',
      responses: { 200: WebhookDeliveryList, 404: null },
    }),
    validParams(WebhookParam),
    validQuery(DeliveryQuery),
    async (c) => {
      const { project_id, webhook_id } = c.req.valid('param');
      const query = c.req.valid('query');
      return c.json(
        await listWebhookDeliveries(c.get('deps'), {
          projectId: project_id,
          webhookId: webhook_id,
          limit: query.limit ?? DEFAULT_PAGE_SIZE,
          ...(query.status ? { status: query.status } : {}),
          ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
        }),
      );
    },
  )
  .post(
    '/projects/:project_id/webhooks/:webhook_id/deliveries/:delivery_id/replay',
    describe({
      operationId: 'replayWebhookDelivery',
      tag,
      auth,
      body: 'none',
      summary: 'Send a delivered or failed message again',
      description: 'Queues a new delivery with the same body and webhook-id. 409 while the original is still pending, or when the endpoint is disabled.',
      responses: { 202: WebhookDelivery, 404: null, 409: null },
    }),
    validParams(DeliveryParam),
    noBody(),
    async (c) => {
      const { project_id, webhook_id, delivery_id } = c.req.valid('param');
      return c.json(await replayWebhookDelivery(c.get('deps'), { actor: ADMIN, projectId: project_id, webhookId: webhook_id, deliveryId: delivery_id }), 202);
    },
  );
