import type postgres from 'postgres';
import type { Deps } from '../deps.ts';
import type { Sql } from '../db/client.ts';
import { notFound } from '../errors.ts';
import { useCase } from '../use-case.ts';
import { isoUtc } from '../db/iso-timestamp.ts';
import { ReadDeliveriesQuery, ReadWebhooksQuery, type WebhookDelivery, type WebhookEndpoint } from './schemas.ts';
import { endpointColumns } from './endpoint-row.ts';
import { decodeCursor, toPage } from '../accounts/page-cursor.ts';

/** A project's endpoints, oldest first (404 for an unknown project, so a typo is not an empty list). */
export const listWebhookEndpoints = useCase(ReadWebhooksQuery, async (deps: Pick<Deps, 'sql'>, input): Promise<{ webhooks: WebhookEndpoint[] }> => {
  const [project] = await deps.sql`select 1 from projects where id = ${input.projectId}`;
  if (!project) throw notFound('Project not found');
  const rows = await deps.sql<WebhookEndpoint[]>`
    select ${endpointColumns(deps.sql)} from webhook_endpoints where project_id = ${input.projectId} order by created_at, id`;
  return { webhooks: [...rows] };
});

/** One endpoint of the project; another project's endpoint is not found, as an unknown id. */
export const getWebhookEndpoint = useCase(ReadWebhooksQuery, async (deps: Pick<Deps, 'sql'>, input): Promise<WebhookEndpoint> => {
  const [row] = await deps.sql<WebhookEndpoint[]>`
    select ${endpointColumns(deps.sql)} from webhook_endpoints where id = ${input.webhookId ?? null} and project_id = ${input.projectId}`;
  if (!row) throw notFound('Webhook endpoint not found');
  return row;
});

/**
 * The delivery log of one endpoint, newest first, a page at a time: keyset pages on (created_at, id)
 * descending, the cursor being the last row's pair (core/accounts/page-cursor.ts), so that a page
 * is neither shifted nor repeated by deliveries created meanwhile (they are newer than any cursor).
 */
export const listWebhookDeliveries = useCase(
  ReadDeliveriesQuery,
  async (deps: Pick<Deps, 'sql'>, input): Promise<{ deliveries: WebhookDelivery[]; next_cursor: string | null }> => {
    const sql = deps.sql;
    // Decoded first: a cursor this API did not give out is a 422 whether or not the endpoint exists.
    const cursor = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
    const [endpoint] = await sql`select 1 from webhook_endpoints where id = ${input.webhookId} and project_id = ${input.projectId}`;
    if (!endpoint) throw notFound('Webhook endpoint not found');
    const rows = await selectDeliveryRows(
      sql,
      sql`endpoint_id = ${input.webhookId} ${input.status ? sql`and status = ${input.status}` : sql``}
        ${cursor ? sql`and (created_at, id) < (${cursor.at}::text::timestamptz, ${cursor.id}::uuid)` : sql``}`,
      input.limit + 1,
    );
    const { items, next_cursor } = toPage(rows, input.limit);
    return { deliveries: items, next_cursor };
  },
);

/** Deliveries matching `where`, newest first, as the API shows them. */
export async function selectDeliveries(sql: Sql, where: postgres.Fragment, limit: number): Promise<WebhookDelivery[]> {
  return (await selectDeliveryRows(sql, where, limit)).map(({ page_at: _at, ...row }) => row);
}

/** selectDeliveries' rows with `page_at`, created_at to the microsecond (a page's cursor). */
async function selectDeliveryRows(sql: Sql, where: postgres.Fragment, limit: number): Promise<(WebhookDelivery & { page_at: string })[]> {
  // ::text on the cursor's timestamp (above): a parameter typed timestamptz goes through a JS Date
  // in postgres.js, which keeps milliseconds only. The ORDER BY names the table's column: the
  // output's created_at is text.
  const rows = await sql<(Omit<WebhookDelivery, 'payload'> & { body: string; page_at: string })[]>`
    select id, endpoint_id, message_id, event_type, status, attempts,
      case when status = 'pending' then ${isoUtc(sql, 'next_attempt_at')} end as next_attempt_at,
      case when last_attempt_at is null then null else ${isoUtc(sql, 'last_attempt_at')} end as last_attempt_at,
      last_status_code, last_error, replay_of, ${isoUtc(sql, 'created_at')} as created_at,
      case when delivered_at is null then null else ${isoUtc(sql, 'delivered_at')} end as delivered_at, body,
      to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as page_at
    from webhook_deliveries
    where ${where}
    order by webhook_deliveries.created_at desc, webhook_deliveries.id desc
    limit ${limit}`;
  return rows.map(({ body, ...row }) => ({ ...row, payload: JSON.parse(body) as unknown }));
}
