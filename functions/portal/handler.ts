import { httpHandler } from '../lambda/http-handler.ts';
import { s3Objects } from '../lambda/s3-objects.ts';
import { sqsQueue } from '../lambda/sqs-queue.ts';
import { translatorFromConfig } from '../../core/translate/translator-from-config.ts';
import { portalGroup } from './routes.ts';

// The portal's pages: Publish queues on SQS, the cache status reads the build pointer from S3;
// setup checks the admin token; the editor's machine translation calls the configured provider.
export const handler = httpHandler(portalGroup, { queue: sqsQueue, objects: s3Objects, translator: translatorFromConfig });
