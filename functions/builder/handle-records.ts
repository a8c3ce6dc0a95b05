// SQS records -> core builds, with partial batch responses. Shared by the builder Lambda and tests.
//  - Records of one project (one FIFO message group) run in order; after a failure, the rest of that
//    group is reported failed too, so that SQS redelivers them after it, in order.
//  - Different projects build concurrently.
//  - A poison message (not a rebuild request at all) goes straight to the dead-letter queue when one
//    is configured, instead of blocking its message group through every redelivery.
import { parseRebuildMessage } from '../../core/adapters/rebuild-queue-sqs.ts';
import { buildProjectCache } from '../../core/cache/build-project-cache.ts';
import { recordBuildFailure } from '../../core/cache/build-state.ts';
import type { Deps } from '../../core/deps.ts';
import type { RebuildMessage } from '../../core/ports/rebuild-queue.ts';

/** The parts of an SQS event record the builder reads (aws-lambda's SQSRecord has more). */
export type SqsRecord = {
  messageId: string;
  /** What ChangeMessageVisibility names the received message by. */
  receiptHandle?: string;
  body: string;
  attributes?: { MessageGroupId?: string; ApproximateReceiveCount?: string };
};
export type SqsBatchResponse = { batchItemFailures: { itemIdentifier: string }[] };

export type RecordHandlerOptions = {
  /** Moves an unparseable record to the dead-letter queue; without it, the record is failed. */
  deadLetter?: (record: SqsRecord, reason: string) => Promise<void>;
  build?: (message: RebuildMessage) => Promise<unknown>;
  /**
   * Makes a failed record visible again after `seconds` (ChangeMessageVisibility). Without it a
   * failed record waits out the queue's visibility timeout (30 minutes on AWS), holding back its
   * project's later rebuilds (one FIFO group) all that time.
   */
  retryLater?: (record: SqsRecord, seconds: number) => Promise<void>;
};

/**
 * When a failed build is tried again: 15 s after its first receive, doubling, at most 5 minutes, as
 * the Postgres queue backs off self-hosted (core/adapters/rebuild-queue-postgres.ts).
 */
export const retryDelaySeconds = (receiveCount: number) => Math.min(300, 15 * 2 ** Math.max(0, receiveCount - 1));

export async function handleRebuildRecords(
  deps: Pick<Deps, 'config' | 'sql' | 'events' | 'objects' | 'clock' | 'log' | 'edge'>,
  records: readonly SqsRecord[],
  options: RecordHandlerOptions = {},
): Promise<SqsBatchResponse> {
  const build = options.build ?? ((message: RebuildMessage) => buildProjectCache(deps, message));
  const groups = new Map<string, SqsRecord[]>();
  for (const record of records) {
    const group = record.attributes?.MessageGroupId ?? record.messageId;
    groups.set(group, [...(groups.get(group) ?? []), record]);
  }
  const failures: string[] = [];

  const runGroup = async (group: SqsRecord[]) => {
    for (const [i, record] of group.entries()) {
      let message: RebuildMessage;
      try {
        message = parseRebuildMessage(record.body);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        deps.log.error('poison rebuild message', { message_id: record.messageId, reason });
        if (options.deadLetter) {
          try {
            await options.deadLetter(record, reason);
            continue;
          } catch (dlqError) {
            deps.log.error('dead-letter send failed', { message_id: record.messageId, error: String(dlqError) });
          }
        }
        failures.push(...group.slice(i).map((r) => r.messageId));
        return;
      }
      try {
        await build(message);
      } catch (error) {
        deps.log.error('rebuild failed', {
          message_id: record.messageId,
          project_id: message.projectId,
          receive_count: record.attributes?.ApproximateReceiveCount,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
        // GET /v1/cache/status shows it as failed until a build succeeds; SQS redelivers the record,
        // unless this was its last receive (the queue's redrive limit): then it goes to the
        // dead-letter queue, and the status must not promise a retry.
        const receiveCount = Number(record.attributes?.ApproximateReceiveCount);
        const lastAttempt = Number.isInteger(receiveCount) && receiveCount >= deps.config.REBUILD_MAX_RECEIVES;
        await recordBuildFailure(deps.sql, message.projectId, { lastAttempt }).catch((recordError) =>
          deps.log.warn('build failure not recorded', { project_id: message.projectId, error: String(recordError) }),
        );
        const failed = group.slice(i);
        failures.push(...failed.map((r) => r.messageId));
        if (options.retryLater) {
          const seconds = retryDelaySeconds(Number(record.attributes?.ApproximateReceiveCount ?? 1) || 1);
          await Promise.all(
            failed.map((r) =>
              options.retryLater!(r, seconds).catch((visibilityError) =>
                deps.log.warn('retry delay not set: the record waits out the visibility timeout', { message_id: r.messageId, error: String(visibilityError) }),
              ),
            ),
          );
        }
        return;
      }
    }
  };

  await Promise.all([...groups.values()].map(runGroup));
  return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
}
