import { rebuildHandler } from '../lambda/rebuild-handler.ts';
import { s3Objects } from '../lambda/s3-objects.ts';
import { sqsDeadLetter, sqsRetryLater } from '../lambda/sqs-dead-letter.ts';
import { cloudFrontEdge } from '../lambda/cloudfront-edge.ts';

export const handler = rebuildHandler({ objects: s3Objects, edge: cloudFrontEdge, deadLetter: sqsDeadLetter, retryLater: sqsRetryLater });
