// The SQS rebuild queue port for the functions that queue rebuilds (POST /v1/cache/rebuild, and
// auto_rebuild after writes). Imported only by their entries, so that no other HTTP function
// bundles @aws-sdk/client-sqs.
import { ConfigError, type Config } from '../../core/config.ts';
import { createSqsRebuildQueue, sqsClientFromConfig } from '../../core/adapters/rebuild-queue-sqs.ts';
import type { RebuildQueue } from '../../core/ports/rebuild-queue.ts';

export function sqsQueue(config: Config): RebuildQueue {
  if (!config.SQS_QUEUE_URL) {
    throw new ConfigError('SQS_QUEUE_URL is required by this function: link RebuildQueue to it');
  }
  return createSqsRebuildQueue({ queueUrl: config.SQS_QUEUE_URL, client: sqsClientFromConfig(config) });
}
