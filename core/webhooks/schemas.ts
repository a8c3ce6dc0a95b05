// The webhook endpoints and deliveries as the admin API takes and shows them.
import * as v from 'valibot';
import { Actor } from '../actor.ts';
import { storableText, Uuid } from '../validation.ts';
import { PageQuery } from '../accounts/page-cursor.ts';

/** What a project can subscribe to (docs/decisions.md, "Webhooks", for each payload). */
export const WEBHOOK_EVENT_TYPES = [
  'cache.rebuilt',
  'translations.changed',
  'language.added',
  'language.removed',
  'comment.added',
  'comment.resolved',
  'task.created',
  'task.assigned',
  'task.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Endpoints a project may register. */
export const MAX_ENDPOINTS_PER_PROJECT = 20;

const EventName = v.picklist(WEBHOOK_EVENT_TYPES, `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
const Events = v.pipe(
  v.array(EventName, 'events must be a list of event names'),
  v.minLength(1, 'give at least one event'),
  v.maxLength(WEBHOOK_EVENT_TYPES.length * 4, 'too many events'),
  v.transform((events) => [...new Set(events)]),
);
// The URL's form is checked here; its address (private, loopback...) by the use-case, which resolves it.
const EndpointUrl = v.pipe(v.string('url must be a string'), v.trim(), v.minLength(1, 'url is required'), v.maxLength(2000, 'url is longer than 2000 characters'));
const Description = v.nullable(storableText('description', 500));

export const CreateWebhookInput = v.strictObject({ url: EndpointUrl, events: Events, description: v.optional(Description) });
export type CreateWebhookInput = v.InferOutput<typeof CreateWebhookInput>;

const UpdateFields = {
  url: v.optional(EndpointUrl),
  events: v.optional(Events),
  description: v.optional(Description),
  enabled: v.optional(v.boolean('enabled must be a boolean')),
};
const someChange = <T extends Record<string, unknown>>() =>
  v.check<T, string>((b) => Object.values(b).some((value) => value !== undefined), 'give url, events, description and/or enabled');
export const UpdateWebhookInput = v.pipe(v.strictObject(UpdateFields), someChange());
export type UpdateWebhookInput = v.InferOutput<typeof UpdateWebhookInput>;

export const WebhookEndpoint = v.object({
  id: Uuid,
  project_id: Uuid,
  url: v.string(),
  description: v.nullable(v.string()),
  events: v.array(EventName),
  enabled: v.boolean(),
  /** Why it is off: failing (tms disabled it after failing continuously) or manual; null while on. */
  disabled_reason: v.nullable(v.picklist(['failing', 'manual'])),
  disabled_at: v.nullable(v.string()),
  /** First failed attempt since the last success; null while deliveries succeed. */
  failing_since: v.nullable(v.string()),
  created_at: v.string(),
  updated_at: v.string(),
});
export type WebhookEndpoint = v.InferOutput<typeof WebhookEndpoint>;

/** The creation answer: the only time the signing secret is shown. */
export const CreatedWebhookEndpoint = v.object({ ...WebhookEndpoint.entries, secret: v.string() });
export type CreatedWebhookEndpoint = v.InferOutput<typeof CreatedWebhookEndpoint>;

export const WebhookEndpointList = v.object({ webhooks: v.array(WebhookEndpoint) });

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const WebhookDelivery = v.object({
  id: Uuid,
  endpoint_id: Uuid,
  /** The webhook-id header: the same for every attempt and replay of the message. */
  message_id: v.string(),
  event_type: v.picklist(WEBHOOK_EVENT_TYPES),
  status: v.picklist(DELIVERY_STATUSES),
  attempts: v.number(),
  /** When the next attempt is due (pending only). */
  next_attempt_at: v.nullable(v.string()),
  last_attempt_at: v.nullable(v.string()),
  /** The HTTP status of the last attempt; null when it got no response. */
  last_status_code: v.nullable(v.number()),
  last_error: v.nullable(v.string()),
  /** The delivery this one replays, if it is a replay. */
  replay_of: v.nullable(Uuid),
  created_at: v.string(),
  delivered_at: v.nullable(v.string()),
  /** The body sent, as signed. */
  payload: v.unknown(),
});
export type WebhookDelivery = v.InferOutput<typeof WebhookDelivery>;

export const WebhookDeliveryList = v.object({
  deliveries: v.array(WebhookDelivery),
  next_cursor: v.pipe(v.nullable(v.string()), v.description('Pass as ?cursor= (with the same status) for the next, older page; null on the last page')),
});

export const DeliveryQuery = v.strictObject({
  status: v.optional(v.picklist(DELIVERY_STATUSES, `status must be one of ${DELIVERY_STATUSES.join(', ')}`)),
  // Digits only, as the other limits: Number() would read 0x10, " 1" and "+1" as numbers. No default
  // here (a string one would be typed so in the OpenAPI document): the route's is DEFAULT_PAGE_SIZE, 50.
  limit: v.optional(v.pipe(v.string('limit must be given once'), v.regex(/^\d{1,4}$/, 'limit must be an integer from 1 to 200'), v.toNumber(), v.integer('limit must be an integer'), v.minValue(1), v.maxValue(200))),
  // The previous page's next_cursor (core/accounts/page-cursor.ts, as the other admin listings).
  cursor: PageQuery.entries.cursor,
});

// Use-case inputs.
const InProject = { actor: Actor, projectId: Uuid };
export const CreateWebhookCommand = v.object({ ...InProject, ...CreateWebhookInput.entries });
export const UpdateWebhookCommand = v.pipe(v.object({ ...InProject, webhookId: Uuid, ...UpdateFields }), v.check((b) => [b.url, b.events, b.description, b.enabled].some((x) => x !== undefined), 'give url, events, description and/or enabled'));
export const WebhookCommand = v.object({ ...InProject, webhookId: Uuid });
export const ReadWebhooksQuery = v.object({ projectId: Uuid, webhookId: v.optional(Uuid) });
export const ReadDeliveriesQuery = v.object({
  projectId: Uuid,
  webhookId: Uuid,
  status: v.optional(v.picklist(DELIVERY_STATUSES)),
  limit: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200)),
  cursor: v.optional(v.string()),
});
export const ReplayDeliveryCommand = v.object({ ...InProject, webhookId: Uuid, deliveryId: Uuid });
