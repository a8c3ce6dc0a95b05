import { httpHandler } from '../lambda/http-handler.ts';
import { translationsGroup } from './routes.ts';

// Live reads: Postgres only.
export const handler = httpHandler(translationsGroup, {});
