import { httpHandler } from '../lambda/http-handler.ts';
import { manifestGroup } from './routes.ts';

// Live reads: Postgres only.
export const handler = httpHandler(manifestGroup, {});
