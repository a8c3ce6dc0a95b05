// The builder Lambda, the rebuild queue's one subscriber (an SQS queue takes exactly one, and
// `queue.subscribe()` is where it is defined). Its own module, imported after stacks/api.ts: besides
// the database, the bucket and the dead-letter queue it links the CDN's EdgeCache, so that after each
// build it invalidates at CloudFront the mutable cached paths the build changed.
import { databaseEnvironment } from './secrets.ts';
import { linksOf } from './links.ts';
import { builderTimeoutMinutes, rebuildDeadLetterQueue, rebuildMaxReceives, rebuildQueue } from './queue.ts';
import { edgeCache } from './api.ts';
import { catalogueEntry, handlerOf } from '../functions/catalogue.ts';

const builderEntry = catalogueEntry('builder');

export const builder = rebuildQueue.subscribe(
  {
    handler: handlerOf(builderEntry),
    description: 'Builds the cached translation files of one project per message',
    memory: '1536 MB',
    timeout: `${builderTimeoutMinutes} minutes`,
    // No quota links: the builder counts no API calls. The dead-letter queue: a message that is not
    // a rebuild request at all is moved there at once (functions/lambda/sqs-dead-letter.ts) rather
    // than blocking its message group for five receives; the link grants the SendMessage.
    link: linksOf(builderEntry.ports, { rebuildDeadLetterQueue, edgeCache }),
    // Its own queue's URL, not a link (which would grant sqs:* on it): as the subscriber it holds
    // sqs:ChangeMessageVisibility already, and sets a failed build's retry with it (15 s doubling
    // to 5 min) instead of leaving it to the 30-minute visibility timeout.
    // And the queue's redrive limit, so that a failing build's last receive is reported as given up.
    environment: { ...databaseEnvironment, SQS_QUEUE_URL: rebuildQueue.url, REBUILD_MAX_RECEIVES: String(rebuildMaxReceives) },
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
