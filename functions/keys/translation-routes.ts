// PUT and DELETE of one translation value, mounted inside the keys router (which applies apiKeyAuth).
import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { describe } from '../http/describe.ts';
import { KeyIdParam, LanguageParam } from '../http/params.ts';
import { keyScope } from '../http/api-key-auth.ts';
import { noBody, requireJsonBody, validBody, validParams } from '../http/validate.ts';
import { PutTranslationInput, StoredTranslation, WrittenTranslation } from '../../core/translations/schemas.ts';
import { markUpToDate } from '../../core/translations/mark-up-to-date.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { deleteTranslation } from '../../core/translations/delete-translation.ts';
import { getTranslation } from '../../core/translations/get-translation.ts';
import { ifMatchOf, readValueEtag, versionEtag, writeConditions } from '../http/if-match.ts';
import { isNotModified } from '../http/conditional.ts';
import { respond, respondJson } from '../http/response-headers.ts';

const tag = 'Translations';
const KeyLanguageParams = v.object({ ...KeyIdParam.entries, ...LanguageParam.entries });

// A value's ETag is its version; no-store: a cache must not answer a later If-Match's read.
const valueHeaders = (version: number) => ({ ETag: versionEtag(version), 'Cache-Control': 'no-store' });

export const translationValueRoutes = new Hono<AppEnv>()
  .get(
    '/:key_id/translations/:language',
    describe({
      operationId: 'getTranslation',
      tag,
      summary:
        'The value of a key in one language, whatever its status, with its version as ETag (for If-Match) and outdated (its source text changed since); If-None-Match with the current one is a 304',
      headers: ['IfNoneMatch'],
      responses: { 200: { schema: StoredTranslation, headers: ['ETag'] }, 304: { headers: ['ETag'] }, 404: null },
    }),
    validParams(KeyLanguageParams),
    async (c) => {
      const { key_id, language } = c.req.valid('param');
      const value = await getTranslation(c.get('deps'), { projectId: c.get('principal').projectId, keyId: key_id, language });
      const headers = { ...valueHeaders(value.version), ETag: readValueEtag(value.version, value.outdated) };
      if (isNotModified(c.req.header('if-none-match'), [headers.ETag])) return respond(c, null, 304, headers);
      return respondJson(c, value, 200, headers);
    },
  )
  .put(
    '/:key_id/translations/:language',
    describe({
      operationId: 'putTranslation',
      tag,
      body: 'json',
      summary:
        "Create or overwrite the value of a key in a registered language (status defaults to draft); If-Match makes it conditional, If-None-Match: * makes it create-only. The answer lists the quality checks' warnings; the project's blocking checks refuse an approval (422)",
      headers: ['IfMatch', 'IfNoneMatchWrite'],
      responses: { 200: { schema: WrittenTranslation, headers: ['ETag'] }, 404: null, 412: null },
    }),
    validParams(KeyLanguageParams),
    requireJsonBody(),
    validBody(PutTranslationInput),
    async (c) => {
      const { key_id, language } = c.req.valid('param');
      const written = await putTranslation(c.get('deps'), { ...keyScope(c), keyId: key_id, language, ...c.req.valid('json'), ...writeConditions(c) });
      return respondJson(c, written, 200, valueHeaders(written.version));
    },
  )
  .post(
    '/:key_id/translations/:language/up-to-date',
    describe({
      operationId: 'markTranslationUpToDate',
      tag,
      body: 'none',
      summary:
        'Mark an outdated value up to date with its source text, text and status unchanged; If-Match names the version read. 422 for the source language',
      headers: ['IfMatch'],
      responses: { 200: { schema: StoredTranslation, headers: ['ETag'] }, 404: null, 412: null },
    }),
    validParams(KeyLanguageParams),
    noBody(),
    async (c) => {
      const { key_id, language } = c.req.valid('param');
      const ifMatch = ifMatchOf(c);
      const value = await markUpToDate(c.get('deps'), { ...keyScope(c), keyId: key_id, language, ...(ifMatch === undefined ? {} : { ifMatch }) });
      return respondJson(c, value, 200, valueHeaders(value.version));
    },
  )
  .delete(
    '/:key_id/translations/:language',
    describe({
      operationId: 'deleteTranslation',
      tag,
      body: 'none',
      summary: 'Permanently delete the value of a key in one language; If-Match makes it conditional',
      headers: ['IfMatch', 'IfNoneMatchWrite'],
      responses: { 204: null, 404: null, 412: null },
    }),
    validParams(KeyLanguageParams),
    noBody(),
    async (c) => {
      const { key_id, language } = c.req.valid('param');
      await deleteTranslation(c.get('deps'), { ...keyScope(c), keyId: key_id, language, ...writeConditions(c) });
      return c.body(null, 204);
    },
  );
