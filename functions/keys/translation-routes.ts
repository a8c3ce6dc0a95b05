// PUT and DELETE of one translation value, mounted inside the keys router (which applies apiKeyAuth).
import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { describe } from '../http/describe.ts';
import { KeyIdParam, LanguageParam } from '../http/params.ts';
import { keyScope } from '../http/api-key-auth.ts';
import { noBody, requireJsonBody, validBody, validParams } from '../http/validate.ts';
import { PutTranslationInput, TranslationValue } from '../../core/translations/schemas.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { deleteTranslation } from '../../core/translations/delete-translation.ts';

const tag = 'Translations';
const KeyLanguageParams = v.object({ ...KeyIdParam.entries, ...LanguageParam.entries });

export const translationValueRoutes = new Hono<AppEnv>()
  .put(
    '/:key_id/translations/:language',
    describe({
      operationId: 'putTranslation',
      tag,
      body: 'json',
      summary: 'Create or overwrite the value of a key in a registered language (status defaults to draft)',
      responses: { 200: TranslationValue, 404: null },
    }),
    validParams(KeyLanguageParams),
    requireJsonBody(),
    validBody(PutTranslationInput),
    async (c) => {
      const { key_id, language } = c.req.valid('param');
      return c.json(await putTranslation(c.get('deps'), { ...keyScope(c), keyId: key_id, language, ...c.req.valid('json') }));
    },
  )
  .delete(
    '/:key_id/translations/:language',
    describe({
      operationId: 'deleteTranslation',
      tag,
      body: 'none',
      summary: 'Permanently delete the value of a key in one language',
      responses: { 204: null, 404: null },
    }),
    validParams(KeyLanguageParams),
    noBody(),
    async (c) => {
      const { key_id, language } = c.req.valid('param');
      await deleteTranslation(c.get('deps'), { ...keyScope(c), keyId: key_id, language });
      return c.body(null, 204);
    },
  );
