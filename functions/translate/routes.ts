// POST /v1/translate/{language}: bulk translation, from translation memory first, then the
// configured machine translation provider (core/translate/translate-missing.ts).
import { Hono } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { apiKeyAuth, keyScope } from '../http/api-key-auth.ts';
import { dailyQuota } from '../http/daily-quota.ts';
import { describe } from '../http/describe.ts';
import { LanguageParam } from '../http/params.ts';
import { routeGroup } from '../http/route-group.ts';
import { requireJsonBody, validBody, validParams } from '../http/validate.ts';
import { MAX_VALUES_PER_CALL, TranslateInput, TranslateResult, translateMissing } from '../../core/translate/translate-missing.ts';

const routes = new Hono<AppEnv>().use('*', apiKeyAuth(), dailyQuota()).post(
  '/:language',
  describe({
    operationId: 'translateMissing',
    tag: 'Machine translation',
    body: 'json',
    summary: "Fill a language's values from translation memory, then machine translation",
    description: [
      "Each selected key's value in the project's source language is translated: exact matches from the account's approved",
      'translation memory first (free), then the configured provider (DeepL, an OpenAI-compatible model, LibreTranslate, Google Cloud Translation or Azure AI Translator),',
      'with placeholders and ICU plurals protected and verified. Values from the provider count as translation units, checked',
      `before the provider is called (402). At most ${MAX_VALUES_PER_CALL} values per call; \`remaining\` says how many are left.`,
      'Without a configured provider only memory fills (`provider` is null). A provider failure is a 502 and writes nothing.',
    ].join(' '),
    responses: { 200: TranslateResult, 402: null, 404: null, 502: null },
  }),
  validParams(LanguageParam),
  requireJsonBody(),
  validBody(TranslateInput),
  async (c) => {
    const { language } = c.req.valid('param');
    return c.json(await translateMissing(c.get('deps'), { ...keyScope(c), language, ...c.req.valid('json') }));
  },
);

export const translateGroup = routeGroup('translate', routes);
