import { Hono } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { apiKeyAuth, keyScope } from '../http/api-key-auth.ts';
import { dailyQuota } from '../http/daily-quota.ts';
import { describe } from '../http/describe.ts';
import { KeyIdParam } from '../http/params.ts';
import { noBody, requireJsonBody, validBody, validParams, validQuery } from '../http/validate.ts';
import { routeGroup } from '../http/route-group.ts';
import { idempotencyKey } from '../http/idempotency-key.ts';
import { KeyRecord, CreateKeyInput, KeyList, ListKeysQuery, UpdatedKey, UpdateKeyInput } from '../../core/keys/schemas.ts';
import { listKeys } from '../../core/keys/list-keys.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { updateKey } from '../../core/keys/update-key.ts';
import { deleteKey } from '../../core/keys/delete-key.ts';
import { translationValueRoutes } from './translation-routes.ts';
import { suggestionRoutes } from './suggestion-routes.ts';

const tag = 'Keys';

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota())
  .get('/', describe({ operationId: 'listKeys', tag, summary: 'List live keys (?group filters by group name)', responses: { 200: KeyList } }), validQuery(ListKeysQuery), async (c) =>
    c.json(await listKeys(c.get('deps'), { projectId: c.get('principal').projectId, group: c.req.valid('query').group })),
  )
  .post(
    '/',
    describe({ operationId: 'createKey', tag, body: 'json', idempotent: true, summary: 'Create a key', responses: { 201: KeyRecord, 402: null, 409: null } }),
    requireJsonBody(),
    validBody(CreateKeyInput),
    idempotencyKey(),
    async (c) => c.json(await createKey(c.get('deps'), { ...keyScope(c), ...c.req.valid('json') }), 201),
  )
  .patch(
    '/:key_id',
    describe({ operationId: 'updateKey', tag, body: 'json', summary: "Change a key's group or description", responses: { 200: UpdatedKey, 404: null } }),
    validParams(KeyIdParam),
    requireJsonBody(),
    validBody(UpdateKeyInput),
    async (c) =>
      c.json(await updateKey(c.get('deps'), { ...keyScope(c), keyId: c.req.valid('param').key_id, ...c.req.valid('json') })),
  )
  .delete(
    '/:key_id',
    describe({ operationId: 'deleteKey', tag, body: 'none', summary: 'Soft-delete a key and its values', responses: { 204: null, 404: null } }),
    validParams(KeyIdParam),
    noBody(),
    async (c) => {
      await deleteKey(c.get('deps'), { ...keyScope(c), keyId: c.req.valid('param').key_id });
      return c.body(null, 204);
    },
  )
  .route('/', translationValueRoutes)
  .route('/', suggestionRoutes);

export const keysGroup = routeGroup('keys', routes);
