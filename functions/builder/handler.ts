import { rebuildHandler } from '../lambda/rebuild-handler.ts';
import { s3Objects } from '../lambda/s3-objects.ts';
import { sqsDeadLetter } from '../lambda/sqs-dead-letter.ts';

export const handler = rebuildHandler({ objects: s3Objects, deadLetter: sqsDeadLetter });
