// The rebuild queue and its dead-letter queue. The builder Lambda subscribed to it is in
// stacks/builder.ts (it needs the CDN, which needs the API, whose functions need this queue).
//
// Why FIFO: the API sends every rebuild with MessageGroupId = project id and an explicit
// MessageDeduplicationId (core/adapters/rebuild-queue-sqs.ts). SQS then hands out a group's messages
// in order and holds the rest of the group back while any of them is in flight, so two builds of
// one project never run at once and an older snapshot can never overwrite a newer one in the bucket;
// different projects still build in parallel. A retried SendMessage within 5 minutes is dropped by
// deduplication. The costs: a message that keeps failing holds back its project's later messages
// until it reaches the DLQ (other projects are unaffected), and the DLQ must be FIFO too.

/** The builder's timeout (stacks/builder.ts); the queue's visibility timeout derives from it. */
export const builderTimeoutMinutes = 5;

/**
 * The queue's redrive limit (maxReceiveCount). The builder is told it too (REBUILD_MAX_RECEIVES), so
 * that on a failing build's last receive the status says no retry follows.
 */
export const rebuildMaxReceives = 10;

export const rebuildDeadLetterQueue = new sst.aws.Queue('RebuildDeadLetterQueue', {
  // A FIFO queue's dead-letter queue must be FIFO as well.
  fifo: true,
  transform: {
    queue: {
      // Keep failed rebuilds for inspection and redrive as long as SQS allows (14 days; a FIFO
      // message's retention restarts when it is moved here).
      messageRetentionSeconds: 14 * 24 * 60 * 60,
    },
  },
});

export const rebuildQueue = new sst.aws.Queue('RebuildQueue', {
  // Deduplication ids come from the sender, so content-based deduplication stays off.
  fifo: true,
  // AWS's guidance for a Lambda-subscribed queue is at least 6x the function timeout, so a message
  // is not handed out again while a slow or retried invocation may still be working on it.
  visibilityTimeout: `${6 * builderTimeoutMinutes} minutes`,
  dlq: {
    queue: rebuildDeadLetterQueue.arn,
    // maxReceiveCount: a message that fails 10 times moves to the DLQ and unblocks its project. The
    // builder retries a failed build after 15 s doubling to 5 min (ChangeMessageVisibility), so
    // that is about half an hour of failing, not the 5 x 30 minutes of the visibility timeout.
    retry: rebuildMaxReceives,
  },
});

// The builder (the queue's subscriber) is defined in stacks/builder.ts: it links the CloudFront
// distribution of stacks/api.ts, which is made after the HTTP functions that link this queue.
