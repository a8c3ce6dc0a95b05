// An AWS account on this machine: s3rver for S3, the JSON-protocol SQS emulator and the REST/XML
// CloudFront emulator (one distribution), with the
// rebuild queue as the stacks make it (FIFO, a FIFO dead-letter queue, redrive after maxReceives).
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { createSqsClient } from '../../core/adapters/rebuild-queue-sqs.ts';
import { startS3Server } from './s3-server.ts';
import { startSqsEmulator } from './sqs-emulator.ts';
import { startCloudFrontEmulator, type CloudFrontEmulator } from './cloudfront-emulator.ts';

/** The distribution the emulated account's CloudFront knows (stacks/api.ts's ApiCdn). */
export const DISTRIBUTION_ID = 'E2TMSEMULATED';

export type EmulatedAws = {
  s3: Awaited<ReturnType<typeof startS3Server>>;
  cloudfront: CloudFrontEmulator;
  client: SQSClient;
  queueUrl: string;
  deadLetterUrl: string;
  /** What is not a link: the emulators' endpoints (on AWS the SDK finds the real ones by region). */
  endpoints: { S3_ENDPOINT: string; S3_FORCE_PATH_STYLE: 'true'; AWS_REGION: string; SQS_ENDPOINT: string; CLOUDFRONT_ENDPOINT: string };
  arnOf(queueUrl: string): Promise<string>;
  /** The local server's env for a stage on this account and the given database (test-app's `env`). */
  localEnv(db: { url: string; kind: string }): Record<string, string>;
  close(): Promise<void>;
};

export async function startEmulatedAws(options: { maxReceives?: number } = {}): Promise<EmulatedAws> {
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER'; // s3rver's fixed credentials; the SQS emulator takes any
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const [s3, sqs, cloudfront] = await Promise.all([startS3Server(), startSqsEmulator(), startCloudFrontEmulator({ distributions: [DISTRIBUTION_ID] })]);
  const client = createSqsClient({ endpoint: sqs.endpoint, region: 'us-east-1' });
  const arnOf = async (url: string) =>
    (await client.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn!;
  const deadLetterUrl = (await client.send(new CreateQueueCommand({ QueueName: 'rebuild-dead.fifo', Attributes: { FifoQueue: 'true' } }))).QueueUrl!;
  const redrive = { deadLetterTargetArn: await arnOf(deadLetterUrl), maxReceiveCount: options.maxReceives ?? 5 };
  const queueUrl = (
    await client.send(new CreateQueueCommand({ QueueName: 'rebuild.fifo', Attributes: { FifoQueue: 'true', RedrivePolicy: JSON.stringify(redrive) } }))
  ).QueueUrl!;
  return {
    s3,
    cloudfront,
    client,
    queueUrl,
    deadLetterUrl,
    endpoints: { S3_ENDPOINT: s3.endpoint, S3_FORCE_PATH_STYLE: 'true', AWS_REGION: 'us-east-1', SQS_ENDPOINT: sqs.endpoint, CLOUDFRONT_ENDPOINT: cloudfront.endpoint },
    arnOf,
    localEnv: (db) => ({
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_REGION: 'us-east-1',
      SQS_ENDPOINT: sqs.endpoint,
      DATABASE_URL: db.url,
      // PGlite serves one pooled connection at a time (core/db/embedded.ts).
      DATABASE_POOL_MAX: db.kind === 'embedded' ? '1' : '4',
      S3_BUCKET: s3.bucket,
      SQS_QUEUE_URL: queueUrl,
      // As on Lambda: no debounce timer doing database work behind the tests' backs.
      AUTO_REBUILD_DEBOUNCE_MS: '0',
    }),
    close: async () => void (await Promise.all([s3.close(), sqs.close(), cloudfront.close()])),
  };
}
