import { httpHandler } from '../lambda/http-handler.ts';
import { usageGroup } from './routes.ts';

export const handler = httpHandler(usageGroup, {});
