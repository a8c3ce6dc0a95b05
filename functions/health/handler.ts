import { httpHandler } from '../lambda/http-handler.ts';
import openapi from '../lambda/openapi.json' with { type: 'json' };
import { healthGroup } from './routes.ts';

// Also the API's catch-all (404 {"detail":"Not Found"}) and GET /openapi.json, a document generated
// from every route group at build time (scripts/openapi.ts) so that this function bundles none of them.
export const handler = httpHandler(healthGroup, {}, { openapi });
