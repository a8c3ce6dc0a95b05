// The builder Lambda entry (functions/builder/handler.ts) fed SQS events made of real received
// messages: a batch where one project's build fails, another's succeeds and a poison message goes to
// the dead-letter queue gets exactly the right batchItemFailures; SQS then redelivers the failed
// records in order (after the builder's own backoff, not the queue's visibility timeout), and they
// succeed once the cause is gone.
import { PutObjectCommand, DeleteObjectCommand } from '@aws-sdk/client-s3';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointerKey } from '../../core/cache/layout.ts';
import type { RebuildHandler } from '../../functions/lambda/rebuild-handler.ts';
import { DISTRIBUTION_ID, startEmulatedAws, type EmulatedAws } from '../support/emulated-aws.ts';
import { startSharedDatabase, type SharedDatabase } from '../support/shared-database.ts';
import { startTestApp, type TestProject } from '../support/test-app.ts';
import { seed } from '../support/cache-helpers.ts';
import { captureJsonLogs, linkEnv, sqsRecord, type SqsEventRecord } from '../support/lambda-events.ts';

let aws: EmulatedAws;
let s3: EmulatedAws['s3'];
let db: SharedDatabase;
let app: Awaited<ReturnType<typeof startTestApp>>;
let client: SQSClient;
let queueUrl: string;
let queueArn: string;
let deadLetterUrl: string;
let builder: RebuildHandler;
const MAX_RECEIVES = 5;

// The entry logs JSON lines to stdout, which is what CloudWatch keeps: captured to assert on.
const logged = captureJsonLogs();

beforeAll(async () => {
  [aws, db] = await Promise.all([startEmulatedAws({ maxReceives: MAX_RECEIVES }), startSharedDatabase()]);
  ({ s3, client, queueUrl, deadLetterUrl } = aws);
  queueArn = await aws.arnOf(queueUrl);
  // The local app writes the data and queues rebuilds (to the same SQS queue); only the builder runs as a Lambda.
  app = await startTestApp({
    env: aws.localEnv(db),
  });
  // The builder's links in stacks/builder.ts: the database, the bucket, the dead-letter queue and the
  // CDN; and its own queue's URL in its environment, to set a failed record's retry.
  Object.assign(process.env, aws.endpoints, { SQS_QUEUE_URL: queueUrl }, linkEnv({
    DatabaseUrl: { value: db.url },
    TranslationsBucket: { name: s3.bucket },
    RebuildDeadLetterQueue: { url: deadLetterUrl },
    EdgeCache: { distributionId: DISTRIBUTION_ID },
  }));
  builder = (await import('../../functions/builder/handler.ts')).handler;
}, 60_000);

afterAll(async () => {
  await builder?.deps().sql.end({ timeout: 1 });
  await app?.close();
  await Promise.all([db?.close(), aws?.close()]);
});

// Received as the event source mapping receives them: invisible for the queue's visibility timeout
// (30 minutes on AWS; 10 here), unless the builder says otherwise.
async function receive(url = queueUrl): Promise<SqsEventRecord[]> {
  const out = await client.send(
    new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, MessageSystemAttributeNames: ['All'], VisibilityTimeout: 600 }),
  );
  return (out.Messages ?? []).map((m) =>
    sqsRecord({ messageId: m.MessageId!, receiptHandle: m.ReceiptHandle!, body: m.Body!, attributes: m.Attributes, queueArn }),
  );
}

/**
 * What the event source mapping does with a partial batch response: deletes the others. The failed
 * reappear when their visibility (the builder's backoff) ends: `retryNow` skips that wait.
 */
async function settle(records: SqsEventRecord[], failures: { itemIdentifier: string }[], retryNow = true) {
  const failed = new Set(failures.map((f) => f.itemIdentifier));
  for (const r of records) {
    if (failed.has(r.messageId)) {
      if (retryNow) await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: r.receiptHandle, VisibilityTimeout: 0 }));
    } else {
      await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: r.receiptHandle }));
    }
  }
}

const body = (r: SqsEventRecord) => JSON.parse(r.body) as { projectId: string; seq: number };

describe('the builder Lambda', () => {
  let good: TestProject;
  let bad: TestProject;

  it('a partially failing batch: exact batchItemFailures, the poison message dead-lettered', async () => {
    good = await app.newProject();
    bad = await app.newProject();
    await seed(app, good, { 'home.title': { de: ['Hallo', 'approved'] } });
    await seed(app, bad, { 'home.title': { fr: ['Bonjour', 'approved'] } });
    // The bad project's build cannot read its current pointer: its builds fail until that is fixed.
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: pointerKey(bad.projectId), Body: 'not a pointer {' }));

    expect((await app.call(bad.apiKey, 'POST', '/v1/cache/rebuild')).status).toBe(202);
    expect((await app.call(good.apiKey, 'POST', '/v1/cache/rebuild')).status).toBe(202);
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'not json', MessageGroupId: 'poison', MessageDeduplicationId: 'poison-1' }));
    expect((await app.call(bad.apiKey, 'POST', '/v1/cache/rebuild')).status).toBe(202);

    const records = await receive();
    expect(records.map((r) => r.attributes.MessageGroupId)).toEqual([bad.projectId, good.projectId, 'poison', bad.projectId]);
    const [bad1, , poison, bad2] = records;

    const response = await builder({ Records: records });
    // The failed record and the later record of its message group, in order; nothing else.
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: bad1!.messageId }, { itemIdentifier: bad2!.messageId }] });
    await settle(records, response.batchItemFailures, false);
    // Groups run concurrently: compare without order.
    expect(logged.filter((l) => l.level === 'error').map((l) => [l.msg, l.message_id]).sort()).toEqual([
      ['poison rebuild message', poison!.messageId],
      ['rebuild failed', bad1!.messageId],
    ]);

    const dead = await receive(deadLetterUrl);
    expect(dead).toHaveLength(1);
    expect(dead[0]!.body).toBe('not json');
    expect(dead[0]!.attributes.MessageGroupId).toBe('poison');
    expect(dead[0]!.attributes.MessageDeduplicationId).toBe(poison!.messageId);

    expect(await (await app.call(good.apiKey, 'GET', '/v1/cache/status')).json()).toMatchObject({ ready: true });
    expect(await (await app.call(good.apiKey, 'GET', '/v1/cached/translations/de/home/home.title')).json()).toEqual({ value: 'Hallo' });
    // The build told CloudFront (the EdgeCache link) which paths it changed: its first build, all of them.
    const { build_id } = await (await app.call(good.apiKey, 'GET', '/v1/cached/manifest')).json();
    expect(aws.cloudfront.invalidations(DISTRIBUTION_ID).find((i) => i.callerReference === build_id)?.paths).toEqual([
      '/v1/cached/manifest',
      // The language with every query string (?fallback=) and every group and key path under it.
      '/v1/cached/translations/de*',
    ]);
  });

  it('SQS redelivers the failed records in order after the builder\'s first backoff (15 s); with the cause gone they build', async () => {
    const failedAt = Date.now();
    let again: SqsEventRecord[] = [];
    while (again.length === 0 && Date.now() - failedAt < 30_000) {
      await new Promise((r) => setTimeout(r, 500));
      again = await receive();
    }
    // Not the 600 s they were received with: the builder set 15 s (retryDelaySeconds(1)).
    expect(Date.now() - failedAt).toBeLessThan(20_000);
    expect(again.map(body)).toEqual([
      { projectId: bad.projectId, seq: 1 },
      { projectId: bad.projectId, seq: 2 },
    ]);
    expect(again.map((r) => r.attributes.ApproximateReceiveCount)).toEqual(['2', '2']);
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: pointerKey(bad.projectId) }));
    const response = await builder({ Records: again });
    expect(response).toEqual({ batchItemFailures: [] });
    await settle(again, response.batchItemFailures);
    expect(await (await app.call(bad.apiKey, 'GET', '/v1/cached/translations/fr/home/home.title')).json()).toEqual({ value: 'Bonjour' });
    expect(await receive()).toEqual([]);
  }, 45_000);

  it('a build that keeps failing reaches the dead-letter queue after the redrive limit, unblocking its project', async () => {
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: pointerKey(bad.projectId), Body: 'broken again' }));
    expect((await app.call(bad.apiKey, 'POST', '/v1/cache/rebuild')).status).toBe(202);
    for (let attempt = 1; attempt <= MAX_RECEIVES; attempt++) {
      const records = await receive();
      expect(records.map((r) => r.attributes.ApproximateReceiveCount)).toEqual([String(attempt)]);
      const response = await builder({ Records: records });
      expect(response.batchItemFailures).toHaveLength(1);
      await settle(records, response.batchItemFailures);
    }
    expect(await receive()).toEqual([]);
    const dead = await receive(deadLetterUrl);
    expect(dead.map(body)).toEqual([{ projectId: bad.projectId, seq: 3 }]);
  });

  it('without a dead-letter queue linked, a poison record is failed for SQS redrive to move', async () => {
    const { rebuildHandler } = await import('../../functions/lambda/rebuild-handler.ts');
    const { s3Objects } = await import('../../functions/lambda/s3-objects.ts');
    // The entry minus its dead-letter port: what a builder without the RebuildDeadLetterQueue link runs.
    const { cloudFrontEdge } = await import('../../functions/lambda/cloudfront-edge.ts');
    const withoutDeadLetter = rebuildHandler({ objects: s3Objects, edge: cloudFrontEdge });
    try {
      const record = sqsRecord({ messageId: 'm-1', receiptHandle: 'r-1', body: '{"projectId":"nope"}', attributes: { MessageGroupId: 'g' } });
      expect(await withoutDeadLetter({ Records: [record] })).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    } finally {
      await withoutDeadLetter.deps().sql.end({ timeout: 1 });
    }
  });
});
