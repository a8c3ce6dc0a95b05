// RebuildQueue on an SQS FIFO queue feeding the builder Lambda. One message group per project:
// SQS then hands a project's messages out one at a time and in order, so builds of one project
// never overlap, while different projects build in parallel.
import type { Config } from '../config.ts';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import * as v from 'valibot';
import type { RebuildMessage, RebuildQueue } from '../ports/rebuild-queue.ts';
import { AWS_REQUEST_HANDLER } from './aws-deadlines.ts';

export type SqsClientOptions = {
  region?: string;
  /** For an SQS-compatible server (the test emulator); leave unset on AWS. */
  endpoint?: string;
  /** Unset on AWS, where the default provider chain finds the Lambda role. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

export function createSqsClient(options: SqsClientOptions = {}): SQSClient {
  return new SQSClient({
    region: options.region ?? 'us-east-1',
    endpoint: options.endpoint,
    credentials: options.credentials,
    requestHandler: AWS_REQUEST_HANDLER,
  });
}

export function createSqsRebuildQueue(options: { queueUrl: string; client: SQSClient }): RebuildQueue {
  const { queueUrl, client } = options;
  let closed = false;
  return {
    // A message may reach the builder before the request commits: the build then takes
    // max(requested_seq, message.seq) as the sequence it covers (core/cache/export-snapshot.ts), and
    // the request's writes committed before it was made, so its snapshot holds them.
    sendBeforeCommit: true,
    async send(message) {
      if (closed) throw new Error('rebuild queue is closed');
      await client.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: JSON.stringify({ projectId: message.projectId, seq: message.seq }),
          MessageGroupId: message.projectId,
          // A retried send of the same request is dropped by SQS within its 5-minute window.
          MessageDeduplicationId: `${message.projectId}:${message.seq}`,
        }),
      );
    },
    async close() {
      // send() awaits SQS, so nothing is in flight here; the client belongs to the caller.
      closed = true;
    },
  };
}

/** The message body as the builder receives it; unknown extra fields are ignored. */
export const RebuildMessageBody = v.object({
  projectId: v.pipe(v.string(), v.uuid('projectId must be a UUID')),
  seq: v.pipe(
    v.number(),
    v.integer('seq must be an integer'),
    v.minValue(0, 'seq must not be negative'),
    v.maxValue(Number.MAX_SAFE_INTEGER, 'seq must be a safe integer'),
  ),
});
export type RebuildMessageBody = v.InferOutput<typeof RebuildMessageBody>;

/** For the builder: turns an SQS body into a RebuildMessage, or throws so the record is rejected. */
export function parseRebuildMessage(body: string): RebuildMessage {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Error(`Invalid rebuild message: not JSON: ${body.slice(0, 200)}`);
  }
  const result = v.safeParse(RebuildMessageBody, json);
  if (!result.success) {
    const issues = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
    throw new Error(`Invalid rebuild message: ${issues.join('; ')}`);
  }
  return { projectId: result.output.projectId, seq: result.output.seq };
}

/** An SQS client as configuration names it (SQS_ENDPOINT, AWS_REGION): one per process. */
export function sqsClientFromConfig(config: Pick<Config, 'SQS_ENDPOINT' | 'AWS_REGION'>): SQSClient {
  return createSqsClient({
    ...(config.SQS_ENDPOINT ? { endpoint: config.SQS_ENDPOINT } : {}),
    ...(config.AWS_REGION ? { region: config.AWS_REGION } : {}),
  });
}
