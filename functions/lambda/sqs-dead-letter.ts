// Moves a poison record (not a rebuild request at all) to the dead-letter queue at once, so that it
// does not hold back its project's message group for its receives; and sets a failed record's retry. The raw body is kept as it was
// received, in the same message group; the record's message id is the deduplication id, so a
// redelivered poison record that is dead-lettered twice is stored once.
import { ChangeMessageVisibilityCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { Config } from '../../core/config.ts';
import type { SqsRecord } from '../builder/handle-records.ts';
import { sqsClientFromConfig } from '../../core/adapters/rebuild-queue-sqs.ts';

export type DeadLetter = (record: SqsRecord, reason: string) => Promise<void>;

/** Undefined without SQS_DEAD_LETTER_QUEUE_URL: poison records are then failed, and SQS's redrive moves them. */
export function sqsDeadLetter(config: Config): DeadLetter | undefined {
  const queueUrl = config.SQS_DEAD_LETTER_QUEUE_URL;
  if (!queueUrl) return undefined;
  const client = sqsClientFromConfig(config);
  const fifo = queueUrl.endsWith('.fifo');
  return async (record) => {
    await client.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: record.body,
        ...(fifo
          ? { MessageGroupId: record.attributes?.MessageGroupId ?? record.messageId, MessageDeduplicationId: record.messageId }
          : {}),
      }),
    );
  };
}

export type RetryLater = (record: SqsRecord, seconds: number) => Promise<void>;

/**
 * The builder's failed records made visible again after their backoff, on the queue they came from
 * (SQS_QUEUE_URL: the stack gives the builder its queue's URL; as the queue's subscriber it already
 * holds sqs:ChangeMessageVisibility). Undefined without it: records wait out the visibility timeout.
 */
export function sqsRetryLater(config: Config): RetryLater | undefined {
  const queueUrl = config.SQS_QUEUE_URL;
  if (!queueUrl) return undefined;
  const client = sqsClientFromConfig(config);
  return async (record, seconds) => {
    if (!record.receiptHandle) return;
    await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: record.receiptHandle, VisibilityTimeout: seconds }));
  };
}
