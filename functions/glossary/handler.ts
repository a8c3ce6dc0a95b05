import { httpHandler } from '../lambda/http-handler.ts';
import { glossaryGroup } from './routes.ts';

export const handler = httpHandler(glossaryGroup, {});
