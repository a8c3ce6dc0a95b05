import { httpHandler } from '../lambda/http-handler.ts';
import { sqsQueue } from '../lambda/sqs-queue.ts';
import { keysGroup } from './routes.ts';

// Writes queue a rebuild when the project has auto_rebuild on (PUT .../translations/{lang} is here too).
export const handler = httpHandler(keysGroup, { queue: sqsQueue });
