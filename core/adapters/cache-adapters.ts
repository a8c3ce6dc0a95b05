// Picks the cache pipeline's adapters from configuration: S3 and SQS when named, otherwise a
// directory under the data dir and the in-process queue (local mode needs no setting at all).
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { ObjectStore } from '../ports/object-store.ts';
import type { RebuildMessage, RebuildQueue } from '../ports/rebuild-queue.ts';
import { createFsObjectStore } from './object-store-fs.ts';
import { s3ObjectStoreFromConfig } from './object-store-s3.ts';
import { createInProcessRebuildQueue } from './rebuild-queue-memory.ts';
import { createSqsRebuildQueue, sqsClientFromConfig } from './rebuild-queue-sqs.ts';

export function createObjectStore(
  config: Pick<Config, 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'AWS_REGION' | 'S3_FORCE_PATH_STYLE'>,
  dataDir: string,
): ObjectStore {
  const bucket = config.S3_BUCKET;
  return bucket ? s3ObjectStoreFromConfig({ ...config, S3_BUCKET: bucket }) : createFsObjectStore(join(dataDir, 'objects'));
}

export function createRebuildQueue(
  config: Pick<Config, 'SQS_QUEUE_URL' | 'SQS_ENDPOINT' | 'AWS_REGION'>,
  options: { log: Logger; build: (message: RebuildMessage) => Promise<void> },
): RebuildQueue {
  if (!config.SQS_QUEUE_URL) return createInProcessRebuildQueue({ handle: options.build, log: options.log });
  return createSqsRebuildQueue({ queueUrl: config.SQS_QUEUE_URL, client: sqsClientFromConfig(config) });
}
