import { httpHandler } from '../lambda/http-handler.ts';
import { screenshotsGroup } from './routes.ts';

export const handler = httpHandler(screenshotsGroup, {});
