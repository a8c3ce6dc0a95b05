// Picks the cache pipeline's adapters from configuration: S3 and SQS when named, otherwise a
// directory under the data dir and the in-process queue (local mode needs no setting at all).
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { ObjectStore } from '../ports/object-store.ts';
import type { RebuildMessage, RebuildQueue } from '../ports/rebuild-queue.ts';
import { createFsObjectStore } from './object-store-fs.ts';
import { createS3Client, createS3ObjectStore } from './object-store-s3.ts';
import { createInProcessRebuildQueue } from './rebuild-queue-memory.ts';
import { createSqsClient, createSqsRebuildQueue } from './rebuild-queue-sqs.ts';

export function createObjectStore(
  config: Pick<Config, 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'AWS_REGION' | 'S3_FORCE_PATH_STYLE'>,
  dataDir: string,
): ObjectStore {
  if (!config.S3_BUCKET) return createFsObjectStore(join(dataDir, 'objects'));
  const region = config.S3_REGION ?? config.AWS_REGION;
  const client = createS3Client({
    ...(region ? { region } : {}),
    ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  });
  return createS3ObjectStore({ bucket: config.S3_BUCKET, client });
}

export function createRebuildQueue(
  config: Pick<Config, 'SQS_QUEUE_URL' | 'SQS_ENDPOINT' | 'S3_REGION' | 'AWS_REGION'>,
  options: { log: Logger; build: (message: RebuildMessage) => Promise<void> },
): RebuildQueue {
  if (!config.SQS_QUEUE_URL) return createInProcessRebuildQueue({ handle: options.build, log: options.log });
  const client = createSqsClient({
    ...(config.SQS_ENDPOINT ? { endpoint: config.SQS_ENDPOINT } : {}),
    ...(config.AWS_REGION ? { region: config.AWS_REGION } : {}),
  });
  return createSqsRebuildQueue({ queueUrl: config.SQS_QUEUE_URL, client });
}
