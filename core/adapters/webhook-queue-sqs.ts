// Webhooks on AWS: there is no long-running process to run the Postgres worker, so
//  - every minute a sweep (the webhooks Lambda on a schedule) turns the outbox into deliveries and
//    hands the due ones to the webhook SQS queue (a standard queue of its own, with its DLQ);
//  - the same Lambda, subscribed to that queue, makes one attempt per message. A failed attempt
//    keeps its message: the handler sets the message's visibility to the backoff delay (at most the
//    8 h the schedule reaches; SQS allows 12) and reports it failed, so SQS itself brings it back
//    when the retry is due. A message that keeps failing to be handled at all (the database down)
//    ends in the dead-letter queue after the queue's maxReceiveCount, and the sweep hands its
//    delivery to the queue again, so the DLQ is a record, not a loss.
// The database stays the truth (status, attempts, next attempt, lease): a duplicate or early message
// is harmless, since an attempt needs a claim on a pending, due row.
import { randomBytes } from 'node:crypto';
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import * as v from 'valibot';
import type { Sql } from '../db/client.ts';
import { attemptDelivery, claimDelivery, leaseMsFor, type AttemptDeps } from '../webhooks/attempt-delivery.ts';
import { dispatchOutbox, type DispatchDeps } from '../webhooks/dispatch-outbox.ts';
import { pruneDeliveries } from '../webhooks/prune-deliveries.ts';

export type WebhookSqs = { client: SQSClient; queueUrl: string };

/** The parts of a Lambda SQS record the handler reads. */
export type WebhookSqsRecord = { messageId: string; receiptHandle: string; body: string };
export type SqsBatchResponse = { batchItemFailures: { itemIdentifier: string }[] };

/** SQS' longest visibility timeout. */
const MAX_VISIBILITY_SECONDS = 12 * 3600;
/** A delivery due this long after the queue should have handed it out is taken for lost and sent again. */
const LOST_AFTER_SECONDS = 15 * 60;
const SWEEP_BATCH = 500;

const Body = v.object({ deliveryId: v.pipe(v.string(), v.uuid()) });

/** The scheduled sweep: outbox -> deliveries -> queue, then pruning. Returns how many deliveries it queued. */
export async function sweepWebhooks(deps: DispatchDeps, sqs: WebhookSqs): Promise<number> {
  // Drained in batches until nothing due is left, within a bound: a flood of writes cannot keep
  // one sweep from ever reaching the queue (the next sweep, a minute later, goes on).
  for (let round = 0; round < 20 && (await dispatchOutbox(deps)) > 0; round++);
  const queued = await enqueueDueDeliveries(deps.sql, sqs);
  // Finished deliveries past their retention, a batch a minute; a failure waits for the next sweep
  // (the deliveries just queued must not be reported as a failed run).
  try {
    const pruned = await pruneDeliveries(deps);
    if (pruned > 0) deps.log.info('webhook deliveries past their retention deleted', { deliveries: pruned });
  } catch (error) {
    deps.log.warn('webhook delivery pruning failed', { error: String(error) });
  }
  return queued;
}

/**
 * Hands due deliveries that are not in the queue (new ones, replays, those of an endpoint enabled
 * again, lost messages) to SQS. The rows are marked in the transaction that sends them: a failed
 * send rolls the marks back; a commit that fails after the send only makes a duplicate message.
 */
export async function enqueueDueDeliveries(sql: Sql, sqs: WebhookSqs): Promise<number> {
  return sql.begin(async (tx) => {
    const rows = await tx<{ id: string }[]>`
      with due as (
        select d.id from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id and w.enabled
        where d.status = 'pending' and d.next_attempt_at <= now()
          and (d.queued_at is null or d.queued_at < now() - make_interval(secs => ${LOST_AFTER_SECONDS}))
        order by d.next_attempt_at
        limit ${SWEEP_BATCH}
        for update of d skip locked
      )
      update webhook_deliveries d set queued_at = now() from due where d.id = due.id returning d.id`;
    for (let i = 0; i < rows.length; i += 10) {
      const batch = rows.slice(i, i + 10);
      const result = await sqs.client.send(
        new SendMessageBatchCommand({
          QueueUrl: sqs.queueUrl,
          Entries: batch.map((row, n) => ({ Id: String(n), MessageBody: JSON.stringify({ deliveryId: row.id }) })),
        }),
      );
      if (result.Failed?.length) throw new Error(`SQS refused ${result.Failed.length} webhook messages: ${result.Failed[0]!.Code ?? ''}`);
    }
    return rows.length;
  });
}

/** The queue subscriber: one attempt per record; a record to retry later is reported failed with its visibility set. */
export async function handleWebhookRecords(
  deps: AttemptDeps,
  records: readonly WebhookSqsRecord[],
  sqs: WebhookSqs,
  owner = `lambda:${randomBytes(6).toString('hex')}`,
): Promise<SqsBatchResponse> {
  const leaseMs = leaseMsFor(deps.config.WEBHOOKS_TIMEOUT_MS);
  const later = async (record: WebhookSqsRecord, seconds: number) => {
    await sqs.client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: sqs.queueUrl,
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: Math.min(MAX_VISIBILITY_SECONDS, Math.max(1, Math.ceil(seconds))),
      }),
    );
    return record.messageId;
  };
  const handle = async (record: WebhookSqsRecord): Promise<string | undefined> => {
    let deliveryId: string;
    try {
      deliveryId = v.parse(Body, JSON.parse(record.body)).deliveryId;
    } catch {
      // Not ours to retry: nothing in the database refers to it.
      deps.log.error('unreadable webhook message dropped', { message_id: record.messageId });
      return undefined;
    }
    const claimed = await claimDelivery(deps.sql, owner, leaseMs, deliveryId);
    if (!claimed) {
      const [row] = await deps.sql<{ status: string; enabled: boolean; wait: number }[]>`
        select d.status, w.enabled,
          greatest(extract(epoch from d.next_attempt_at - now()), extract(epoch from coalesce(d.lease_until, now()) - now()), 0)::float8 as wait
        from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id where d.id = ${deliveryId}`;
      // Done, deleted, or its endpoint off (enabling it hands it to the queue again): the message is spent.
      if (!row || row.status !== 'pending' || !row.enabled) return undefined;
      // Early (a duplicate, or a wait longer than SQS keeps a message invisible) or claimed elsewhere.
      return later(record, row.wait + 1);
    }
    const outcome = await attemptDelivery(deps, claimed, owner);
    if (outcome.status !== 'retry') return undefined;
    // The queue now holds it until the retry: the sweep must not send it again before then.
    await deps.sql`update webhook_deliveries set queued_at = next_attempt_at where id = ${deliveryId}`;
    return later(record, outcome.retryInMs / 1000);
  };
  const results = await Promise.all(
    records.map((record) =>
      handle(record).catch((error) => {
        deps.log.error('webhook message not handled', { message_id: record.messageId, error: String(error) });
        return record.messageId;
      }),
    ),
  );
  return { batchItemFailures: results.filter((id): id is string => id !== undefined).map((itemIdentifier) => ({ itemIdentifier })) };
}
