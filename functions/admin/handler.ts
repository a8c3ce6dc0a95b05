import { httpHandler } from '../lambda/http-handler.ts';
import { sqsQueue } from '../lambda/sqs-queue.ts';
import { adminGroup } from './routes.ts';

// Accounts, projects and API keys: closed unless AdminToken is linked. Restores and fallback changes
// queue a rebuild when the project has auto_rebuild on, as the API's writes do.
export const handler = httpHandler(adminGroup, { queue: sqsQueue });
