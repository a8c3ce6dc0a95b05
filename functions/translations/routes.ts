import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { apiKeyAuth } from '../http/api-key-auth.ts';
import { dailyQuota } from '../http/daily-quota.ts';
import { describe } from '../http/describe.ts';
import { LanguageParam } from '../http/params.ts';
import { validParams, validQuery } from '../http/validate.ts';
import { routeGroup } from '../http/route-group.ts';
import { LIVE_RESPONSES, liveResponse } from '../http/live-response.ts';
import { GroupTranslations, KeyTranslation, LanguageTranslations, TranslationsQuery } from '../../core/translations/schemas.ts';
import { readLanguage } from '../../core/translations/read-language.ts';
import { readGroup } from '../../core/translations/read-group.ts';
import { readKey } from '../../core/translations/read-key.ts';

const tag = 'Live translations';

// Live bodies carry a strong ETag and `private, no-cache`; If-None-Match is a 304 while unchanged.

// Group and key segments are any string (URL-decoded by Hono): a name that cannot exist is a 404.
const GroupParams = v.object({ ...LanguageParam.entries, group: v.string() });
const KeyParams = v.object({ ...GroupParams.entries, key: v.string() });

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota())
  .get(
    '/:language',
    describe({
      operationId: 'readLanguageTranslations',
      tag,
      summary: 'All live values of a language, keyed by full key name (?status=approved|draft|review|all)',
      headers: ['IfNoneMatch'],
      responses: { 200: { schema: LanguageTranslations, ...LIVE_RESPONSES }, 304: LIVE_RESPONSES, 404: null },
    }),
    validParams(LanguageParam),
    validQuery(TranslationsQuery),
    async (c) =>
      liveResponse(c, await readLanguage(c.get('deps'), { projectId: c.get('principal').projectId, ...c.req.valid('param'), ...c.req.valid('query') })),
  )
  .get(
    '/:language/:group',
    describe({
      operationId: 'readGroupTranslations',
      tag,
      summary: "One group's live values in a language (?status=approved|draft|review|all)",
      headers: ['IfNoneMatch'],
      responses: { 200: { schema: GroupTranslations, ...LIVE_RESPONSES }, 304: LIVE_RESPONSES, 404: null },
    }),
    validParams(GroupParams),
    validQuery(TranslationsQuery),
    async (c) => {
      const { language, group } = c.req.valid('param');
      return liveResponse(c, await readGroup(c.get('deps'), { projectId: c.get('principal').projectId, language, group, ...c.req.valid('query') }));
    },
  )
  .get(
    '/:language/:group/:key',
    describe({
      operationId: 'readKeyTranslation',
      tag,
      summary: 'One live value by full key name (?status=approved|draft|review|all)',
      headers: ['IfNoneMatch'],
      responses: { 200: { schema: KeyTranslation, ...LIVE_RESPONSES }, 304: LIVE_RESPONSES, 404: null },
    }),
    validParams(KeyParams),
    validQuery(TranslationsQuery),
    async (c) => {
      const { language, group, key } = c.req.valid('param');
      return liveResponse(c, await readKey(c.get('deps'), { projectId: c.get('principal').projectId, language, group, key, ...c.req.valid('query') }));
    },
  );

export const translationsGroup = routeGroup('translations', routes);
