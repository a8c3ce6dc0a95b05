// The AWS path, offline: rebuild requests go to SQS (the JSON-protocol emulator), the builder is fed
// real SQS event records, objects land in S3 (s3rver), and the cached endpoints read them back.
import { DeleteMessageCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../core/log.ts';
import { handleRebuildRecords, type SqsRecord } from '../../functions/builder/handle-records.ts';
import { startEmulatedAws, type EmulatedAws } from '../support/emulated-aws.ts';
import { startTestApp, type TestProject } from '../support/test-app.ts';
import { seed } from '../support/cache-helpers.ts';

let aws: EmulatedAws;
let s3: EmulatedAws['s3'];
let app: Awaited<ReturnType<typeof startTestApp>>;
let client: SQSClient;
let queueUrl: string;
const log = createMemoryLogger();

beforeAll(async () => {
  aws = await startEmulatedAws();
  ({ s3, client, queueUrl } = aws);
  app = await startTestApp({ log, env: { ...aws.endpoints, S3_BUCKET: s3.bucket, SQS_QUEUE_URL: queueUrl } });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await aws?.close();
});

/** What Lambda's SQS event source hands the builder: received messages as event records. */
async function receiveRecords(): Promise<(SqsRecord & { receiptHandle: string })[]> {
  const out = await client.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, MessageSystemAttributeNames: ['All'], VisibilityTimeout: 30 }));
  return (out.Messages ?? []).map((m) => ({
    messageId: m.MessageId!,
    receiptHandle: m.ReceiptHandle!,
    body: m.Body!,
    attributes: { MessageGroupId: m.Attributes?.MessageGroupId, ApproximateReceiveCount: m.Attributes?.ApproximateReceiveCount },
  }));
}

async function runBuilder(): Promise<{ failures: string[]; handled: number }> {
  const records = await receiveRecords();
  const { batchItemFailures } = await handleRebuildRecords(app.runtime.deps, records);
  const failed = new Set(batchItemFailures.map((f) => f.itemIdentifier));
  // Lambda deletes the records that did not fail.
  for (const r of records) if (!failed.has(r.messageId)) await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: r.receiptHandle }));
  return { failures: [...failed], handled: records.length };
}

describe('SQS + S3', () => {
  let p: TestProject;
  it('POST rebuild sends one FIFO message per request, grouped by project', async () => {
    p = await app.newProject();
    await seed(app, p, { 'home.title': { de: ['Hallo', 'approved'] } });
    expect((await app.call(p.apiKey, 'POST', '/v1/cache/rebuild')).status).toBe(202);
    expect((await app.call(p.apiKey, 'GET', '/v1/cached/translations/de')).status).toBe(503);
    const records = await receiveRecords();
    expect(records).toHaveLength(1);
    expect(JSON.parse(records[0]!.body)).toEqual({ projectId: p.projectId, seq: 1 });
    expect(records[0]!.attributes?.MessageGroupId).toBe(p.projectId);
    // Put it back for the builder below.
    const { ChangeMessageVisibilityCommand } = await import('@aws-sdk/client-sqs');
    await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: records[0]!.receiptHandle, VisibilityTimeout: 0 }));
  });

  it('the builder consumes the event, writes to S3, and the cached endpoints serve from there', async () => {
    const { failures, handled } = await runBuilder();
    expect(handled).toBe(1);
    expect(failures).toEqual([]);
    const status = await (await app.call(p.apiKey, 'GET', '/v1/cache/status')).json();
    expect(status.ready).toBe(true);
    const res = await app.call(p.apiKey, 'GET', '/v1/cached/translations/de/home/home.title');
    expect(await res.json()).toEqual({ value: 'Hallo' });
    const listed = await s3.client.send(new (await import('@aws-sdk/client-s3')).ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `projects/${p.projectId}/` }));
    expect(listed.KeyCount).toBeGreaterThan(5);
  });

  it('a burst of requests is coalesced by the sequence check: one build for the lot', async () => {
    for (let i = 0; i < 5; i++) await app.call(p.apiKey, 'POST', '/v1/cache/rebuild');
    const before = log.lines.filter((l) => l.msg === 'cache built').length;
    const { handled, failures } = await runBuilder();
    expect(handled).toBe(5);
    expect(failures).toEqual([]);
    expect(log.lines.filter((l) => l.msg === 'cache built').length - before).toBe(1);
  });
});

describe('partial batch failures', () => {
  const deps = () => app.runtime.deps;
  const record = (id: string, group: string, body: string): SqsRecord => ({ messageId: id, body, attributes: { MessageGroupId: group, ApproximateReceiveCount: '1' } });

  it('a failing project fails its record and the later ones of its group; other projects succeed', async () => {
    const good = crypto.randomUUID();
    const bad = crypto.randomUUID();
    const built: string[] = [];
    const result = await handleRebuildRecords(
      deps(),
      [
        record('m1', bad, JSON.stringify({ projectId: bad, seq: 1 })),
        record('m2', good, JSON.stringify({ projectId: good, seq: 1 })),
        record('m3', bad, JSON.stringify({ projectId: bad, seq: 2 })),
        record('m4', good, JSON.stringify({ projectId: good, seq: 2 })),
      ],
      {
        build: async (m) => {
          if (m.projectId === bad) throw new Error('database unreachable');
          built.push(`${m.projectId}:${m.seq}`);
        },
      },
    );
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm3' }] });
    expect(built).toEqual([`${good}:1`, `${good}:2`]);
  });

  it('a poison message goes to the dead-letter queue and does not block its group', async () => {
    const group = crypto.randomUUID();
    const dead: string[] = [];
    const built: number[] = [];
    const result = await handleRebuildRecords(
      deps(),
      [record('p1', group, 'not json'), record('p2', group, JSON.stringify({ projectId: group, seq: 3 })), record('p3', group, '{"projectId":"x","seq":-1}')],
      { deadLetter: async (r) => void dead.push(r.messageId), build: async (m) => void built.push(m.seq) },
    );
    expect(result.batchItemFailures).toEqual([]);
    expect(dead).toEqual(['p1', 'p3']);
    expect(built).toEqual([3]);
  });

  it('without a dead-letter queue, a poison message is reported failed (SQS redrive moves it)', async () => {
    const result = await handleRebuildRecords(deps(), [record('x1', 'g', '{}')], { build: async () => {} });
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'x1' }]);
  });
});
