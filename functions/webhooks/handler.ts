import { webhookHandler } from '../lambda/webhook-handler.ts';
import { s3Objects } from '../lambda/s3-objects.ts';

export const handler = webhookHandler({ objects: s3Objects });
