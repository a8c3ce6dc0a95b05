// Webhook delivery on AWS (core/adapters/webhook-queue-sqs.ts): a standard SQS queue of its own with
// its dead-letter queue, and one function (the catalogue's `webhooks` entry) on two triggers: the
// queue (one attempt per message; a failed attempt's message is made invisible for the backoff and
// comes back when the retry is due) and a one-minute schedule (outbox -> deliveries -> queue).
//
// Why not FIFO, as the rebuild queue: deliveries need no order (Standard Webhooks receivers must
// not rely on one) and a FIFO group would hold every later delivery of an endpoint behind one that
// is waiting hours for its retry. Duplicates are harmless: an attempt needs a claim on a pending row.
import { databaseEnvironment } from './secrets.ts';
import { linksOf } from './links.ts';
import { rebuildDeadLetterQueue } from './queue.ts';
import { catalogueEntry, handlerOf } from '../functions/catalogue.ts';

const entry = catalogueEntry('webhooks');
// An attempt is bounded by WEBHOOKS_TIMEOUT_MS (10 s); a batch of 10 runs them side by side.
const timeoutSeconds = 30;

export const webhookDeadLetterQueue = new sst.aws.Queue('WebhookDeadLetterQueue', {
  transform: { queue: { messageRetentionSeconds: 14 * 24 * 60 * 60 } },
});

export const webhookQueue = new sst.aws.Queue('WebhookQueue', {
  // AWS's guidance for a Lambda-subscribed queue: at least 6x the function timeout.
  visibilityTimeout: `${6 * timeoutSeconds} seconds`,
  dlq: {
    queue: webhookDeadLetterQueue.arn,
    // A delivery takes about ten receives in its day of retries (plus early returns when its wait
    // exceeds what SQS keeps a message invisible); 50 leaves room, so only messages that cannot be
    // handled at all (the database unreachable for a long time) land here. The sweep hands their
    // deliveries to the queue again once they are overdue: the DLQ is a record, not a loss.
    retry: 50,
  },
  transform: {
    // Longer than a delivery's day of retries.
    queue: { messageRetentionSeconds: 4 * 24 * 60 * 60 },
  },
});

const functionArgs = {
  handler: handlerOf(entry),
  description: `tms: ${entry.purpose}`,
  memory: '512 MB' as const,
  timeout: `${timeoutSeconds} seconds` as const,
  link: linksOf(entry.ports, { rebuildDeadLetterQueue, webhookQueue }),
  // The API functions never send webhooks; only this one needs to know private targets are refused.
  environment: { ...databaseEnvironment, WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'false' },
};

export const webhookSender = webhookQueue.subscribe(functionArgs, {
  batch: { size: 10, partialResponses: true },
  transform: {
    // Each instance holds a database connection: cap how many run at once.
    eventSourceMapping: { scalingConfig: { maximumConcurrency: 5 } },
  },
});

export const webhookSweep = new sst.aws.Cron('WebhookSweep', {
  schedule: 'rate(1 minute)',
  function: functionArgs,
});
