import { httpHandler } from '../lambda/http-handler.ts';
import { sqsQueue } from '../lambda/sqs-queue.ts';
import { groupsGroup } from './routes.ts';

// Renames and deletes queue a rebuild when the project has auto_rebuild on.
export const handler = httpHandler(groupsGroup, { queue: sqsQueue });
