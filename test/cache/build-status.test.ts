// GET /v1/cache/status beside the spec's fields: pending once a request is recorded, failed (with a public
// message and no internals) when a build fails, on the SQS builder as on the local worker, and
// idle with the failure cleared once a build succeeds. The worker is stopped so that the test
// decides when builds run (the builder entry's handler stands in for the Lambda).
import { describe, expect, it } from 'vitest';
import { ChangeMessageVisibilityCommand, DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { handleRebuildRecords, type SqsRecord } from '../../functions/builder/handle-records.ts';
import { BUILD_ABANDONED_MESSAGE, BUILD_FAILED_MESSAGE } from '../../core/cache/build-state.ts';
import { startEmulatedAws } from '../support/emulated-aws.ts';
import { startTestApp } from '../support/test-app.ts';
import { seed } from '../support/cache-helpers.ts';

describe('cache status shows a pending and a failed build', () => {
  it('pending after the 202, failed after a failed build, idle after a good one', async () => {
    const t = await startTestApp();
    try {
      await t.runtime.rebuilds!.close();
      const p = await t.newProject();
      await seed(t, p, { 'home.title': { de: ['Hallo', 'approved'] } });
      const status = async () => (await t.call(p.apiKey, 'GET', '/v1/cache/status')).json();
      expect(await status()).toEqual({
        project_id: p.projectId, last_rebuilt_at: null, ready: false, pending: false, build_state: 'idle', failed_at: null, last_error: null,
      });

      // The app's queue is closed: the request is recorded as the route would, then built by hand.
      const [row] = await t.runtime.deps.sql<{ seq: number }[]>`
        insert into cache_state (project_id, requested_seq) values (${p.projectId}, 1) returning requested_seq::int as seq`;
      expect(await status()).toMatchObject({ ready: false, pending: true, build_state: 'queued', failed_at: null });

      const record = { messageId: 'm1', body: JSON.stringify({ projectId: p.projectId, seq: row!.seq }) };
      const failing = await handleRebuildRecords(t.runtime.deps, [record], {
        build: async () => {
          throw new Error('connect ECONNREFUSED 10.0.0.7:5432');
        },
      });
      expect(failing.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
      const failed = await status();
      expect(failed).toMatchObject({ ready: false, pending: true, build_state: 'failed', last_error: BUILD_FAILED_MESSAGE, failed_at: expect.any(String) });
      expect(JSON.stringify(failed)).not.toContain('10.0.0.7');

      expect((await handleRebuildRecords(t.runtime.deps, [record])).batchItemFailures).toEqual([]);
      t.runtime.deps.cache.invalidate(p.projectId);
      expect(await status()).toMatchObject({ ready: true, pending: false, build_state: 'idle', failed_at: null, last_error: null });
    } finally {
      await t.close();
    }
  });
});

describe('a build the SQS builder gives up on', () => {
  // After the redrive limit the message is in the dead-letter queue and nothing retries it: the
  // status used to keep saying "retried automatically", and a client polled for a build that never came.
  it('on the last receive the status says no retry follows; a new request queues it again', async () => {
    const maxReceives = 2;
    const aws = await startEmulatedAws({ maxReceives });
    const app = await startTestApp({
      env: { ...aws.endpoints, S3_BUCKET: aws.s3.bucket, SQS_QUEUE_URL: aws.queueUrl, REBUILD_MAX_RECEIVES: String(maxReceives) },
    });
    try {
      const receive = async (url: string): Promise<(SqsRecord & { receiptHandle: string })[]> => {
        const out = await aws.client.send(
          new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, MessageSystemAttributeNames: ['All'], VisibilityTimeout: 30 }),
        );
        return (out.Messages ?? []).map((m) => ({
          messageId: m.MessageId!,
          receiptHandle: m.ReceiptHandle!,
          body: m.Body!,
          attributes: { MessageGroupId: m.Attributes?.MessageGroupId, ApproximateReceiveCount: m.Attributes?.ApproximateReceiveCount },
        }));
      };
      const p = await app.newProject();
      await seed(app, p, { 'home.title': { de: ['Hallo', 'approved'] } });
      const status = async () => (await app.call(p.apiKey, 'GET', '/v1/cache/status')).json();
      expect((await app.call(p.apiKey, 'POST', '/v1/cache/rebuild')).status).toBe(202);
      // Every attempt meets S3 refusing the upload; the builder fails the record, SQS redelivers it.
      const failingBuild = async () => {
        throw Object.assign(new Error('Please reduce your request rate.'), { name: 'SlowDown', $metadata: { httpStatusCode: 503 } });
      };
      for (let attempt = 1; attempt <= maxReceives; attempt++) {
        const records = await receive(aws.queueUrl);
        expect(records.map((r) => r.attributes?.ApproximateReceiveCount)).toEqual([String(attempt)]);
        const { batchItemFailures } = await handleRebuildRecords(app.runtime.deps, records, { build: failingBuild });
        expect(batchItemFailures).toHaveLength(1);
        expect((await status()).last_error).toBe(attempt < maxReceives ? BUILD_FAILED_MESSAGE : BUILD_ABANDONED_MESSAGE);
        // What Lambda does with a failed record: it becomes visible again (here at once).
        await aws.client.send(new ChangeMessageVisibilityCommand({ QueueUrl: aws.queueUrl, ReceiptHandle: records[0]!.receiptHandle, VisibilityTimeout: 0 }));
      }
      // The next receive moves it to the dead-letter queue: the project has nothing queued any more.
      expect(await receive(aws.queueUrl)).toEqual([]);
      const dead = await receive(aws.deadLetterUrl);
      expect(dead.map((r) => JSON.parse(r.body).projectId)).toEqual([p.projectId]);
      await aws.client.send(new DeleteMessageCommand({ QueueUrl: aws.deadLetterUrl, ReceiptHandle: dead[0]!.receiptHandle }));
      expect(await status()).toMatchObject({ ready: false, build_state: 'failed', last_error: BUILD_ABANDONED_MESSAGE, failed_at: expect.any(String) });
      expect(BUILD_ABANDONED_MESSAGE).not.toMatch(/retried automatically/i);

      // Asked again, the build is queued anew (not shown as failed), and built.
      expect((await app.call(p.apiKey, 'POST', '/v1/cache/rebuild')).status).toBe(202);
      expect(await status()).toMatchObject({ pending: true, build_state: 'queued', failed_at: null, last_error: null });
      expect((await handleRebuildRecords(app.runtime.deps, await receive(aws.queueUrl))).batchItemFailures).toEqual([]);
      app.runtime.deps.cache.invalidate(p.projectId);
      expect(await status()).toMatchObject({ ready: true, pending: false, build_state: 'idle', last_error: null });
    } finally {
      await app.close();
      await aws.close();
    }
  }, 60_000);
});
