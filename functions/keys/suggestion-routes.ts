// Translation memory suggestions for one key and language, mounted inside the keys router (which
// applies apiKeyAuth and the daily quota). A read: memory hits never count as translation units.
import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { describe } from '../http/describe.ts';
import { KeyIdParam, LanguageParam } from '../http/params.ts';
import { keyScope } from '../http/api-key-auth.ts';
import { validParams, validQuery } from '../http/validate.ts';
import { MAX_SUGGESTIONS, Suggestions, suggestTranslations } from '../../core/memory/suggest-translations.ts';

const KeyLanguageParams = v.object({ ...KeyIdParam.entries, ...LanguageParam.entries });
// Query strings tolerate unknown parameters elsewhere too; limit is checked when given.
const SuggestionsQuery = v.object({
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,2}$/, `limit must be a whole number from 1 to ${MAX_SUGGESTIONS}`), v.transform(Number), v.pipe(v.number(), v.integer(), v.minValue(1, `limit must be from 1 to ${MAX_SUGGESTIONS}`), v.maxValue(MAX_SUGGESTIONS, `limit must be from 1 to ${MAX_SUGGESTIONS}`)))),
});

export const suggestionRoutes = new Hono<AppEnv>().get(
  '/:key_id/suggestions/:language',
  describe({
    operationId: 'suggestTranslations',
    tag: 'Translation memory',
    summary: "Translations of the same or a similar source text from the account's approved values",
    description:
      "The key's value in the project's source language is searched in the memory of every project of the account: exact matches score 1, fuzzy ones their trigram similarity (at least 0.5). Only approved translations are suggested.",
    responses: { 200: Suggestions, 404: null },
  }),
  validParams(KeyLanguageParams),
  validQuery(SuggestionsQuery),
  async (c) => {
    const { key_id, language } = c.req.valid('param');
    const { limit } = c.req.valid('query');
    return c.json(await suggestTranslations(c.get('deps'), { projectId: keyScope(c).projectId, keyId: key_id, language, ...(limit ? { limit } : {}) }));
  },
);
