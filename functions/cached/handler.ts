import { httpHandler } from '../lambda/http-handler.ts';
import { s3Objects } from '../lambda/s3-objects.ts';
import { cachedRoutesGroup } from './routes.ts';

// Prebuilt files from S3; Postgres only to verify API keys (cached in process).
export const handler = httpHandler(cachedRoutesGroup, { objects: s3Objects });
