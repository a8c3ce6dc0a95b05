import { httpHandler } from '../lambda/http-handler.ts';
import { tasksGroup } from './routes.ts';

export const handler = httpHandler(tasksGroup, {});
