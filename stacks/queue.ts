// The rebuild queue, its dead-letter queue and the builder Lambda subscribed to it. The builder lives
// here rather than in its own module because an SQS queue takes exactly one subscriber and
// `queue.subscribe()` is where that subscriber is defined.
//
// Why FIFO: the API sends every rebuild with MessageGroupId = project id and an explicit
// MessageDeduplicationId (core/adapters/rebuild-queue-sqs.ts). SQS then hands out a group's messages
// in order and holds the rest of the group back while any of them is in flight, so two builds of
// one project never run at once and an older snapshot can never overwrite a newer one in the bucket;
// different projects still build in parallel. A retried SendMessage within 5 minutes is dropped by
// deduplication. The costs: a message that keeps failing holds back its project's later messages
// until it reaches the DLQ (other projects are unaffected), and the DLQ must be FIFO too.
import { databaseEnvironment } from './secrets.ts';
import { linksOf } from './links.ts';
import { catalogueEntry, handlerOf } from '../functions/catalogue.ts';

const builderEntry = catalogueEntry('builder');

const builderTimeoutMinutes = 5;

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
    // maxReceiveCount: a message that fails 5 times moves to the DLQ and unblocks its project.
    retry: 5,
  },
});

export const builder = rebuildQueue.subscribe(
  {
    handler: handlerOf(builderEntry),
    description: 'Builds the cached translation files of one project per message',
    memory: '1536 MB',
    timeout: `${builderTimeoutMinutes} minutes`,
    // No quota links: the builder counts no API calls. The dead-letter queue: a message that is not
    // a rebuild request at all is moved there at once (functions/lambda/sqs-dead-letter.ts) rather
    // than blocking its message group for five receives; the link grants the SendMessage.
    link: linksOf(builderEntry.ports, { rebuildDeadLetterQueue }),
    environment: databaseEnvironment,
  },
  {
    batch: {
      // The FIFO maximum. A batch may hold several projects (each group still in order) or several
      // messages of one project, which the builder can serve with a single build.
      size: 10,
      // The handler returns { batchItemFailures } so one failed record does not redeliver the
      // batch. On FIFO it must stop at a group's first failure and also report that group's later
      // records, or they would be deleted ahead of the one that failed.
      partialResponses: true,
    },
    transform: {
      eventSourceMapping: {
        // Each builder holds a database connection; cap how many run at once so a burst of
        // rebuilds across many projects cannot exhaust Postgres. Messages wait in the queue.
        scalingConfig: { maximumConcurrency: 5 },
      },
    },
  },
);
