// Webhooks the AWS way, against the SQS emulator of test/support: the sweep turns the outbox into
// deliveries and queues them; the queue's handler makes one attempt per message; a failed attempt's
// message is made invisible for the backoff and comes back when the retry is due, so an outage and
// recovery lose nothing. With WEBHOOKS_QUEUE_URL set, no process runs the Postgres worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { createSqsClient } from '../../core/adapters/rebuild-queue-sqs.ts';
import { handleWebhookRecords, sweepWebhooks, type WebhookSqs, type WebhookSqsRecord } from '../../core/adapters/webhook-queue-sqs.ts';
import { webhookHandler } from '../../functions/lambda/webhook-handler.ts';
import { startSqsEmulator } from '../support/sqs-emulator.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { usingRealPostgres } from '../support/test-database.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

let emulator: Awaited<ReturnType<typeof startSqsEmulator>>;
let client: SQSClient;
let sqs: WebhookSqs;
let deadLetterUrl: string;
let t: TestApp & { close(): Promise<void> };
let receiver: WebhookReceiver;

beforeAll(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  emulator = await startSqsEmulator();
  client = createSqsClient({ endpoint: emulator.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  deadLetterUrl = (await client.send(new CreateQueueCommand({ QueueName: 'webhooks-dead' }))).QueueUrl!;
  const arn = (await client.send(new GetQueueAttributesCommand({ QueueUrl: deadLetterUrl, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn!;
  const queueUrl = (
    await client.send(
      new CreateQueueCommand({ QueueName: 'webhooks', Attributes: { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: arn, maxReceiveCount: 3 }) } }),
    )
  ).QueueUrl!;
  sqs = { client, queueUrl };
  t = await startTestApp({
    env: {
      WEBHOOKS_QUEUE_URL: queueUrl,
      SQS_ENDPOINT: emulator.endpoint,
      AWS_REGION: 'us-east-1',
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOKS_RETRY_BASE_MS: '1000',
      WEBHOOKS_DEBOUNCE_MS: '0',
    },
  });
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await t?.close();
  await emulator?.close();
});

async function receive(queueUrl = sqs.queueUrl, waitSeconds = 0): Promise<WebhookSqsRecord[]> {
  const res = await client.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: waitSeconds }));
  return (res.Messages ?? []).map((m) => ({ messageId: m.MessageId!, receiptHandle: m.ReceiptHandle!, body: m.Body! }));
}

type Delivery = { status: string; attempts: number; last_status_code: number | null };

describe('webhooks over SQS', () => {
  it('runs no Postgres worker when WEBHOOKS_QUEUE_URL names a queue', () => {
    expect(t.runtime.webhooks).toBeUndefined();
  });

  it('sweep, queue, attempt; an outage keeps the message, which comes back after the backoff; nothing is lost', async () => {
    const p = await t.newProject('team');
    const created = (await (await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: receiver.url(), events: ['language.added'] })).json()) as { id: string; secret: string };
    receiver.secret = created.secret;
    for (const code of ['de', 'fr']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);

    // Nothing is sent until the sweep runs: no worker in this process.
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received).toHaveLength(0);
    expect(await sweepWebhooks(t.runtime.deps, sqs)).toBe(2);
    // Queued once: a second sweep finds nothing new to queue.
    expect(await sweepWebhooks(t.runtime.deps, sqs)).toBe(0);

    receiver.mode = 'fail';
    const first = await receive();
    expect(first).toHaveLength(2);
    const failed = await handleWebhookRecords(t.runtime.deps, first, sqs);
    expect(failed.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(first.map((r) => r.messageId).sort());
    // Invisible for the backoff (1 s), and not queued again by a sweep meanwhile.
    expect(await receive()).toHaveLength(0);
    expect(await sweepWebhooks(t.runtime.deps, sqs)).toBe(0);

    receiver.mode = 'ok';
    const again = await receive(sqs.queueUrl, 3);
    const more = again.length < 2 ? await receive(sqs.queueUrl, 2) : [];
    const records = [...again, ...more];
    expect(records.map((r) => r.body).sort()).toEqual(first.map((r) => r.body).sort());
    expect((await handleWebhookRecords(t.runtime.deps, records, sqs)).batchItemFailures).toEqual([]);

    expect(receiver.accepted().map((r) => r.verified!.data.language).sort()).toEqual(['de', 'fr']);
    const log = ((await (await t.admin('GET', `/projects/${p.projectId}/webhooks/${created.id}/deliveries`)).json()) as { deliveries: Delivery[] }).deliveries;
    expect(log.map((d) => [d.status, d.attempts, d.last_status_code])).toEqual([
      ['succeeded', 2, 204],
      ['succeeded', 2, 204],
    ]);
    // A late duplicate of a delivered message is spent without another attempt.
    const before = receiver.received.length;
    expect((await handleWebhookRecords(t.runtime.deps, records, sqs)).batchItemFailures).toEqual([]);
    expect(receiver.received.length).toBe(before);
    expect(await receive(deadLetterUrl)).toEqual([]);
  });

  it('the sweep deletes finished deliveries past their retention (WEBHOOKS_RETENTION_DAYS, 30)', async () => {
    const p = await t.newProject('team');
    const { id } = (await (await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: receiver.url('/old'), events: ['cache.rebuilt'] })).json()) as { id: string };
    for (const daysAgo of [31, 29]) {
      await t.runtime.deps.sql`
        insert into webhook_deliveries (endpoint_id, project_id, message_id, event_type, body, status, next_attempt_at, created_at)
        values (${id}, ${p.projectId}, ${`msg_old_${daysAgo}`}, 'cache.rebuilt', '{}', 'succeeded', null, now() - make_interval(days => ${daysAgo}))`;
    }
    await sweepWebhooks(t.runtime.deps, sqs);
    const left = await t.runtime.deps.sql<{ message_id: string }[]>`select message_id from webhook_deliveries where endpoint_id = ${id}`;
    expect(left.map((d) => d.message_id)).toEqual(['msg_old_29']);
  });

  it('drops an unreadable message instead of retrying it', async () => {
    const res = await handleWebhookRecords(t.runtime.deps, [{ messageId: 'm-1', receiptHandle: 'r-1', body: 'not json' }], sqs);
    expect(res.batchItemFailures).toEqual([]);
  });

  it.runIf(usingRealPostgres())('the Lambda entry sweeps on its schedule and attempts on queue records', async () => {
    const p = await t.newProject('team');
    const created = (await (await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: receiver.url('/lambda'), events: ['language.removed'] })).json()) as { secret: string };
    receiver.secret = created.secret;
    await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'nl' });
    await t.call(p.apiKey, 'DELETE', '/v1/languages/nl');
    const handler = webhookHandler({ objects: () => t.runtime.deps.objects }, { config: () => ({ ...t.runtime.deps.config, DATABASE_POOL_MAX: 2 }) });
    try {
      expect(await handler({ source: 'aws.events', 'detail-type': 'Scheduled Event' })).toEqual({ queued: 1 });
      const records = await receive(sqs.queueUrl, 1);
      expect(await handler({ Records: records })).toEqual({ batchItemFailures: [] });
      expect(receiver.accepted().filter((r) => r.path === '/lambda').map((r) => r.verified!.type)).toEqual(['language.removed']);
    } finally {
      await handler.deps().sql.end();
    }
  });
});
