// One attempt of one delivery, shared by the Postgres worker and the SQS delivery Lambda: claim the
// row (a lease, so two workers never send it at once), send it signed, record what happened, and
// schedule the retry or give up. An endpoint failing every attempt for WEBHOOKS_DISABLE_AFTER_SECONDS
// is disabled and a webhook.disabled domain event tells the project (its activity log; the
// endpoint's disabled_reason says "failing").
import type { Deps } from '../deps.ts';
import type { Sql } from '../db/client.ts';
import { transaction } from '../db/transaction.ts';
import { systemActor } from '../actor.ts';
import { signedHeaders } from './signature.ts';
import { sendWebhook, type AttemptResult } from './send-webhook.ts';
import { retryDelayMs } from './retry-schedule.ts';

const WEBHOOKS = systemActor('webhooks');

export type ClaimedDelivery = {
  id: string;
  endpoint_id: string;
  project_id: string;
  message_id: string;
  event_type: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
};

export type DeliveryOutcome =
  | { status: 'succeeded' }
  | { status: 'failed' }
  | { status: 'retry'; retryInMs: number }
  /** The row changed under us (deleted, claimed elsewhere): nothing recorded. */
  | { status: 'lost' };

export type AttemptDeps = Pick<Deps, 'sql' | 'events' | 'config' | 'log'>;

/** How long a claim holds: the attempt's timeout plus room to record its result. */
export const leaseMsFor = (timeoutMs: number) => timeoutMs + 20_000;

/**
 * How many attempts one endpoint has in flight at most: a receiver that hangs holds two of the
 * worker's slots for its timeout, not all of them, and its deliveries keep roughly their order.
 */
export const ENDPOINT_IN_FLIGHT = 2;
/**
 * How many attempts one project has in flight at most, across every worker: half of a worker's
 * slots (at least one), so one project's hanging endpoints leave the other half to the others.
 */
export const projectInFlight = (concurrency: number) => Math.max(1, Math.floor(concurrency / 2));

/** The attempts in flight (leased, lease not over): few rows, read through their own index. */
const inFlight = (sql: Sql) => sql`
  select endpoint_id, project_id from webhook_deliveries
  where lease_until is not null and lease_until > now() and status = 'pending'`;

/**
 * Up to `limit` due deliveries of enabled endpoints, claimed for `owner`, shared fairly: each
 * endpoint offers its oldest due deliveries up to what its attempts in flight leave of
 * ENDPOINT_IN_FLIGHT; each project's offers are numbered after its attempts in flight, and those
 * beyond its share wait; the lowest numbers go first, so a slot that frees goes to the project with
 * the fewest attempts running. Workers claiming at the same instant can each take an endpoint's
 * share (the caps are read, not locked): a soft limit, exact for one worker.
 */
export async function claimDueDeliveries(sql: Sql, owner: string, leaseMs: number, limit: number, projectShare = projectInFlight(limit)): Promise<ClaimedDelivery[]> {
  return sql<ClaimedDelivery[]>`
    with busy as materialized (${inFlight(sql)}),
    offered as (
      select d.id, d.project_id, d.next_attempt_at
      from webhook_endpoints w
      cross join lateral (
        select d.id, d.project_id, d.next_attempt_at from webhook_deliveries d
        where d.endpoint_id = w.id and d.status = 'pending' and d.next_attempt_at <= now()
          and (d.lease_until is null or d.lease_until <= now())
        order by d.next_attempt_at, d.id
        limit greatest(0, ${ENDPOINT_IN_FLIGHT} - (select count(*) from busy b where b.endpoint_id = w.id))
      ) d
      where w.enabled
    ),
    numbered as (
      select o.id, o.next_attempt_at,
        row_number() over (partition by o.project_id order by o.next_attempt_at, o.id)
          + (select count(*) from busy b where b.project_id = o.project_id) as turn
      from offered o
    ),
    next as (
      select d.id from webhook_deliveries d join numbered n on n.id = d.id
      where n.turn <= ${projectShare} and d.status = 'pending' and (d.lease_until is null or d.lease_until <= now())
      order by n.turn, n.next_attempt_at, d.id
      limit ${limit}
      for update of d skip locked
    )
    ${claimed(sql, owner, leaseMs)}`;
}

/**
 * A subquery: when the next claim could find something (null: nothing pending): the earliest pending delivery
 * whose endpoint and project are under their caps. Deliveries held back by a cap are not counted:
 * the attempt that frees their room wakes the worker that ran it, and any other at its next poll.
 */
export const nextClaimableAt = (sql: Sql, projectShare: number) => sql`(
  with busy as materialized (${inFlight(sql)})
  select min(d.next_attempt_at)
  from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id and w.enabled
  where d.status = 'pending' and (d.lease_until is null or d.lease_until <= now())
    and d.endpoint_id not in (select endpoint_id from busy group by endpoint_id having count(*) >= ${ENDPOINT_IN_FLIGHT})
    and d.project_id not in (select project_id from busy group by project_id having count(*) >= ${projectShare}))`;

const claimed = (sql: Sql, owner: string, leaseMs: number) => sql`
  update webhook_deliveries d set lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${leaseMs / 1000})
  from next, webhook_endpoints w
  where d.id = next.id and w.id = d.endpoint_id
  returning d.id, d.endpoint_id, d.project_id, d.message_id, d.event_type, d.body, d.attempts, w.url, w.secret`;

/**
 * One delivery by id, if it is pending, due, unclaimed and its endpoint enabled (the SQS delivery
 * Lambda: the queue hands out one message per delivery; the caps above are the Postgres worker's).
 */
export async function claimDelivery(sql: Sql, owner: string, leaseMs: number, id: string): Promise<ClaimedDelivery | undefined> {
  const [row] = await sql<ClaimedDelivery[]>`
    with next as (
      select d.id from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id and w.enabled
      where d.id = ${id} and d.status = 'pending' and d.next_attempt_at <= now() and (d.lease_until is null or d.lease_until <= now())
      for update of d skip locked
    )
    ${claimed(sql, owner, leaseMs)}`;
  return row;
}

export async function attemptDelivery(deps: AttemptDeps, delivery: ClaimedDelivery, owner: string): Promise<DeliveryOutcome> {
  const { config, log } = deps;
  const timestamp = Math.floor(Date.now() / 1000);
  const result: AttemptResult = await sendWebhook({
    url: delivery.url,
    headers: signedHeaders(delivery.secret, delivery.message_id, timestamp, delivery.body),
    body: delivery.body,
    timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
    allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
  }).catch((error: unknown): AttemptResult => ({ ok: false, statusCode: null, error: `attempt failed: ${error instanceof Error ? error.name : 'error'}` }));
  // Logged with the endpoint's id and host only: a URL's path or query can carry a token of the
  // receiver's, and the secret and signature are never logged at all.
  const fields = { delivery_id: delivery.id, endpoint_id: delivery.endpoint_id, project_id: delivery.project_id, host: new URL(delivery.url).host, attempt: delivery.attempts + 1 };
  const sql = deps.sql;
  if (result.ok) {
    const [row] = await sql`
      update webhook_deliveries set status = 'succeeded', attempts = attempts + 1, last_attempt_at = now(),
        last_status_code = ${result.statusCode}, last_error = null, delivered_at = now(), next_attempt_at = null,
        lease_owner = null, lease_until = null
      where id = ${delivery.id} and lease_owner = ${owner} returning id`;
    await sql`update webhook_endpoints set failing_since = null where id = ${delivery.endpoint_id} and failing_since is not null`;
    log.info('webhook delivered', { ...fields, status_code: result.statusCode });
    return row ? { status: 'succeeded' } : { status: 'lost' };
  }
  const delayMs = retryDelayMs(config.WEBHOOKS_RETRY_BASE_MS, delivery.attempts + 1);
  const [row] = await sql<{ status: 'pending' | 'failed' }[]>`
    update webhook_deliveries set attempts = attempts + 1, last_attempt_at = now(),
      last_status_code = ${result.statusCode}, last_error = ${result.error}, lease_owner = null, lease_until = null,
      status = case when now() + make_interval(secs => ${delayMs / 1000}) > created_at + make_interval(secs => ${config.WEBHOOKS_RETRY_WINDOW_SECONDS})
                    then 'failed' else 'pending' end,
      next_attempt_at = case when now() + make_interval(secs => ${delayMs / 1000}) > created_at + make_interval(secs => ${config.WEBHOOKS_RETRY_WINDOW_SECONDS})
                    then null else now() + make_interval(secs => ${delayMs / 1000}) end
    where id = ${delivery.id} and lease_owner = ${owner} returning status`;
  log.warn('webhook attempt failed', { ...fields, status_code: result.statusCode, error: result.error, gave_up: row?.status === 'failed' });
  await noteFailure(deps, delivery);
  if (!row) return { status: 'lost' };
  return row.status === 'failed' ? { status: 'failed' } : { status: 'retry', retryInMs: delayMs };
}

/** Starts or continues the endpoint's failing streak, and disables it once the streak is old enough. */
async function noteFailure(deps: AttemptDeps, delivery: ClaimedDelivery): Promise<void> {
  const [endpoint] = await deps.sql<{ overdue: boolean }[]>`
    update webhook_endpoints set failing_since = coalesce(failing_since, now())
    where id = ${delivery.endpoint_id}
    returning enabled and failing_since <= now() - make_interval(secs => ${deps.config.WEBHOOKS_DISABLE_AFTER_SECONDS}) as overdue`;
  if (endpoint?.overdue) await disableFailingEndpoint(deps, { projectId: delivery.project_id, endpointId: delivery.endpoint_id });
}

/** Turns an endpoint off for failing, once, telling the project with a webhook.disabled event. */
export async function disableFailingEndpoint(deps: AttemptDeps, input: { projectId: string; endpointId: string }): Promise<boolean> {
  return transaction(deps, async (tx) => {
    const [disabled] = await tx.sql<{ failing_since: string | null }[]>`
      update webhook_endpoints set enabled = false, disabled_reason = 'failing', disabled_at = now(), updated_at = now()
      where id = ${input.endpointId} and project_id = ${input.projectId} and enabled
      returning to_char(failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as failing_since`;
    if (!disabled) return false;
    tx.record({
      type: 'webhook.disabled',
      projectId: input.projectId,
      actor: WEBHOOKS,
      entity: { type: 'webhook', id: input.endpointId },
      after: { enabled: false, reason: 'failing', failing_since: disabled.failing_since },
    });
    deps.log.warn('webhook endpoint disabled after failing continuously', {
      endpoint_id: input.endpointId,
      project_id: input.projectId,
      disable_after_seconds: deps.config.WEBHOOKS_DISABLE_AFTER_SECONDS,
    });
    return true;
  });
}
