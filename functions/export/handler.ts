import { httpHandler } from '../lambda/http-handler.ts';
import { exportGroup } from './routes.ts';

export const handler = httpHandler(exportGroup, {});
