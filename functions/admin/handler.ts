import { httpHandler } from '../lambda/http-handler.ts';
import { adminGroup } from './routes.ts';

// Accounts, projects and API keys: Postgres only; closed unless AdminToken is linked.
export const handler = httpHandler(adminGroup, {});
