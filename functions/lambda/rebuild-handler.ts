// The builder's Lambda entry: SQS records from the FIFO rebuild queue -> core builds, answered with
// { batchItemFailures } (the event source mapping has partial batch responses on). Records handling,
// ordering and failure rules live in functions/builder/handle-records.ts, shared with tests.
import type { Deps } from '../../core/deps.ts';
import type { Config } from '../../core/config.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import type { EdgeCache } from '../../core/ports/edge-cache.ts';
import { handleRebuildRecords, type SqsBatchResponse, type SqsRecord } from '../builder/handle-records.ts';
import { createLambdaDeps } from './lambda-deps.ts';
import { lambdaConfig } from './resource-env.ts';
import type { DeadLetter, RetryLater } from './sqs-dead-letter.ts';

/** The parts of Lambda's SQS event the builder reads. */
export type SqsEvent = { Records: SqsRecord[] };

export type RebuildHandler = ((event: SqsEvent) => Promise<SqsBatchResponse>) & { deps(): Deps };

export function rebuildHandler(ports: {
  objects: (config: Config) => ObjectStore;
  /** The edge in front of the API: the builder invalidates what each build changed there. */
  edge: (config: Config) => EdgeCache;
  deadLetter?: (config: Config) => DeadLetter | undefined;
  /** Shortens a failed record's wait (ChangeMessageVisibility on the queue it came from). */
  retryLater?: (config: Config) => RetryLater | undefined;
}): RebuildHandler {
  let instance: { deps: Deps; deadLetter: DeadLetter | undefined; retryLater: RetryLater | undefined } | undefined;
  const init = () => {
    if (instance) return instance;
    const config = lambdaConfig();
    // No counters port: the builder counts nothing. No queue: it consumes the queue, never sends.
    const deps = createLambdaDeps(config, { objects: ports.objects, edge: ports.edge });
    const deadLetter = ports.deadLetter?.(config);
    if (!deadLetter) deps.log.warn('no dead-letter queue linked: poison records are failed until SQS redrives them');
    const retryLater = ports.retryLater?.(config);
    if (!retryLater) deps.log.warn('no SQS_QUEUE_URL: a failed build is retried only after the queue\'s visibility timeout');
    instance = { deps, deadLetter, retryLater };
    return instance;
  };
  const handler = async (event: SqsEvent) => {
    const { deps, deadLetter, retryLater } = init();
    return handleRebuildRecords(deps, event.Records, { ...(deadLetter ? { deadLetter } : {}), ...(retryLater ? { retryLater } : {}) });
  };
  return Object.assign(handler, { deps: () => init().deps });
}
