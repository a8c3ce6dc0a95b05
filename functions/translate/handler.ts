import { httpHandler } from '../lambda/http-handler.ts';
import { sqsQueue } from '../lambda/sqs-queue.ts';
import { translatorFromConfig } from '../../core/translate/translator-from-config.ts';
import { translateGroup } from './routes.ts';

// A translation run queues a rebuild when the project has auto_rebuild on, as other writes do.
export const handler = httpHandler(translateGroup, { queue: sqsQueue, translator: translatorFromConfig });
