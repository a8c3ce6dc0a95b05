import { httpHandler } from '../lambda/http-handler.ts';
import { s3Objects } from '../lambda/s3-objects.ts';
import { sqsQueue } from '../lambda/sqs-queue.ts';
import { cacheBuildsGroup } from './routes.ts';

// POST /rebuild queues on SQS; GET /status reads the current build's pointer from S3.
export const handler = httpHandler(cacheBuildsGroup, { queue: sqsQueue, objects: s3Objects });
