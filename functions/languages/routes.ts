import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { apiKeyAuth, keyScope } from '../http/api-key-auth.ts';
import { dailyQuota } from '../http/daily-quota.ts';
import { describe } from '../http/describe.ts';
import { noBody, requireJsonBody, validBody, validParams } from '../http/validate.ts';
import { routeGroup } from '../http/route-group.ts';
import { idempotencyKey } from '../http/idempotency-key.ts';
import { AddedLanguage, AddLanguageInput, LanguageList, RemovedLanguage } from '../../core/languages/schemas.ts';
import { LanguageCode } from '../../core/languages/language-code.ts';
import { listLanguages } from '../../core/languages/list-languages.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { removeLanguage } from '../../core/languages/remove-language.ts';

const tag = 'Languages';

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota())
  .get('/', describe({ operationId: 'listLanguages', tag, input: false, summary: 'List registered languages', responses: { 200: LanguageList } }), async (c) =>
    c.json(await listLanguages(c.get('deps'), { projectId: c.get('principal').projectId })),
  )
  .post(
    '/',
    describe({ operationId: 'addLanguage', tag, body: 'json', idempotent: true, summary: 'Register a language', responses: { 201: AddedLanguage, 402: null, 409: null } }),
    requireJsonBody(),
    validBody(AddLanguageInput),
    idempotencyKey(),
    async (c) => c.json(await addLanguage(c.get('deps'), { ...keyScope(c), code: c.req.valid('json').code }), 201),
  )
  .delete(
    '/:code',
    describe({
      operationId: 'removeLanguage',
      tag,
      body: 'none',
      summary: 'Unregister a language and delete its values',
      responses: { 200: RemovedLanguage, 404: null },
    }),
    validParams(v.object({ code: LanguageCode })),
    noBody(),
    async (c) => c.json(await removeLanguage(c.get('deps'), { ...keyScope(c), code: c.req.valid('param').code })),
  );

export const languagesGroup = routeGroup('languages', routes);
