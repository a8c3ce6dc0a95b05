import { httpHandler } from '../lambda/http-handler.ts';
import { s3Objects } from '../lambda/s3-objects.ts';
import { screenshotsGroup } from './routes.ts';

// Images in S3 (the cache's bucket, under projects/<id>/screenshots/), their rows in Postgres.
export const handler = httpHandler(screenshotsGroup, { objects: s3Objects });
