// Picks the cache pipeline's adapters from configuration: S3 and SQS when named, otherwise a
// directory under the data dir and the durable queue in Postgres, with its worker in this process
// (local mode needs no setting at all).
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { ObjectStore } from '../ports/object-store.ts';
import type { Sql } from '../db/client.ts';
import type { RebuildMessage, RebuildQueue } from '../ports/rebuild-queue.ts';
import { createFsObjectStore } from './object-store-fs.ts';
import { s3ObjectStoreFromConfig } from './object-store-s3.ts';
import { createPostgresRebuildQueue, type PostgresRebuildQueue } from './rebuild-queue-postgres.ts';
import { createSqsRebuildQueue, sqsClientFromConfig } from './rebuild-queue-sqs.ts';
import type { EdgeCache } from '../ports/edge-cache.ts';
import { cloudFrontEdgeCacheFromConfig } from './edge-cache-cloudfront.ts';
import { createNoEdgeCache } from './edge-cache-none.ts';

/** CloudFront when a distribution is named (a self-hosted server behind one may set it), otherwise none. */
export function createEdgeCache(config: Pick<Config, 'CLOUDFRONT_DISTRIBUTION_ID' | 'CLOUDFRONT_ENDPOINT'>): EdgeCache {
  const distributionId = config.CLOUDFRONT_DISTRIBUTION_ID;
  return distributionId ? cloudFrontEdgeCacheFromConfig({ ...config, CLOUDFRONT_DISTRIBUTION_ID: distributionId }) : createNoEdgeCache();
}

export function createObjectStore(
  config: Pick<Config, 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'AWS_REGION' | 'S3_FORCE_PATH_STYLE'>,
  dataDir: string,
): ObjectStore {
  const bucket = config.S3_BUCKET;
  return bucket ? s3ObjectStoreFromConfig({ ...config, S3_BUCKET: bucket }) : createFsObjectStore(join(dataDir, 'objects'));
}

/** The queue, and its worker when builds run in this process (not on SQS, where the builder Lambda runs them). */
export function createRebuildQueue(
  config: Pick<Config, 'SQS_QUEUE_URL' | 'SQS_ENDPOINT' | 'AWS_REGION' | 'REBUILD_POLL_MS'>,
  options: { log: Logger; sql: Sql; build: (message: RebuildMessage) => Promise<void>; soleWorker: boolean },
): { queue: RebuildQueue; worker: PostgresRebuildQueue | undefined } {
  if (config.SQS_QUEUE_URL) {
    return { queue: createSqsRebuildQueue({ queueUrl: config.SQS_QUEUE_URL, client: sqsClientFromConfig(config) }), worker: undefined };
  }
  const worker = createPostgresRebuildQueue({
    sql: options.sql,
    handle: options.build,
    log: options.log,
    pollMs: config.REBUILD_POLL_MS,
    soleWorker: options.soleWorker,
  });
  return { queue: worker, worker };
}
