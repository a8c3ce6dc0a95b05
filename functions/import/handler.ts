import { httpHandler } from '../lambda/http-handler.ts';
import { sqsQueue } from '../lambda/sqs-queue.ts';
import { importGroup } from './routes.ts';

// An import is a write: with auto_rebuild on, it queues a rebuild.
export const handler = httpHandler(importGroup, { queue: sqsQueue });
