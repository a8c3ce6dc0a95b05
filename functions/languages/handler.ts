import { httpHandler } from '../lambda/http-handler.ts';
import { sqsQueue } from '../lambda/sqs-queue.ts';
import { languagesGroup } from './routes.ts';

// Adding or removing a language queues a rebuild when the project has auto_rebuild on.
export const handler = httpHandler(languagesGroup, { queue: sqsQueue });
