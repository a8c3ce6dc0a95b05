// /v1/glossary: the project's glossary terms (core/glossary; docs/decisions.md, "Glossary").
// Nothing here changes what is served: no rebuild, no webhook.
import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { apiKeyAuth, keyScope } from '../http/api-key-auth.ts';
import { dailyQuota } from '../http/daily-quota.ts';
import { describe } from '../http/describe.ts';
import { idempotencyKey } from '../http/idempotency-key.ts';
import { noBody, requireJsonBody, validBody, validParams, validQuery } from '../http/validate.ts';
import { respondJson } from '../http/response-headers.ts';
import { routeGroup } from '../http/route-group.ts';
import { Uuid } from '../../core/validation.ts';
import { CreateTermInput, GlossaryTerm, ListTermsQuery, TERM_MAX_CHARS, TermList, TERMS_PER_PROJECT_MAX, UpdateTermInput } from '../../core/glossary/schemas.ts';
import { listTerms } from '../../core/glossary/list-terms.ts';
import { getTerm } from '../../core/glossary/get-term.ts';
import { createTerm } from '../../core/glossary/create-term.ts';
import { updateTerm } from '../../core/glossary/update-term.ts';
import { deleteTerm } from '../../core/glossary/delete-term.ts';

const tag = 'Glossary';
const TermParam = v.object({ term_id: Uuid });

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota())
  .get(
    '/',
    describe({
      operationId: 'listGlossaryTerms',
      tag,
      summary: "The project's glossary terms: all, a search, a page, or those in one key's source text",
      description:
        'Terms in the order of their spelling (case folded), each with its translations by language. q: terms whose spelling or a ' +
        'translation contains it, in any case. key_id: the terms found in that live key\'s source text as whole words (as the portal\'s ' +
        'editor shows them; a case_sensitive term only as written; scripts without spaces, such as Chinese or Japanese, match anywhere), ' +
        'all of them, with no q, limit or cursor (404 when it is not a live key of the project). Without limit and cursor every ' +
        'match is listed; with either, one page of limit terms (1 to 500, default 100) and next_cursor (null on the last page). ' +
        'A query parameter this operation does not know is a 422 naming it.',
      responses: { 200: TermList, 404: null },
    }),
    validQuery(ListTermsQuery),
    async (c) => {
      const { key_id, ...query } = c.req.valid('query');
      return c.json(await listTerms(c.get('deps'), { projectId: c.get('principal').projectId, ...query, ...(key_id !== undefined ? { keyId: key_id } : {}) }));
    },
  )
  .post(
    '/',
    describe({
      operationId: 'createGlossaryTerm',
      tag,
      body: 'json',
      idempotent: true,
      summary: `Add a term (1 to ${TERM_MAX_CHARS} characters) with its translations`,
      description:
        `translations: {"de": "Übersicht"}, one text per language of the project other than its source language (422 for another code). ` +
        'translatable false marks a term kept as written in every language (a brand); case_sensitive true finds it only as written. ' +
        `A spelling the glossary has in any case is a 409. At most ${TERMS_PER_PROJECT_MAX.toLocaleString('en-US')} terms per project (422 beyond). ` +
        "Recorded in the project's activity as term.added; nothing served changes.",
      responses: { 201: GlossaryTerm, 409: null },
    }),
    requireJsonBody(),
    validBody(CreateTermInput),
    idempotencyKey(),
    async (c) => respondJson(c, await createTerm(c.get('deps'), { ...keyScope(c), ...c.req.valid('json') }), 201),
  )
  .get(
    '/:term_id',
    describe({ operationId: 'getGlossaryTerm', tag, summary: 'One glossary term', responses: { 200: GlossaryTerm, 404: null } }),
    validParams(TermParam),
    async (c) => c.json(await getTerm(c.get('deps'), { projectId: c.get('principal').projectId, termId: c.req.valid('param').term_id })),
  )
  .patch(
    '/:term_id',
    describe({
      operationId: 'updateGlossaryTerm',
      tag,
      body: 'json',
      summary: 'Change a term: its spelling, description, flags or translations',
      description:
        'translations are merged into the term\'s: {"de": "Startseite"} sets German, {"fr": null} removes French, other languages stay. ' +
        "A change is recorded in the project's activity as term.updated, with before and after; a PATCH that changes nothing records nothing.",
      responses: { 200: GlossaryTerm, 404: null, 409: null },
    }),
    validParams(TermParam),
    requireJsonBody(),
    validBody(UpdateTermInput),
    async (c) => respondJson(c, await updateTerm(c.get('deps'), { ...keyScope(c), termId: c.req.valid('param').term_id, ...c.req.valid('json') }), 200),
  )
  .delete(
    '/:term_id',
    describe({ operationId: 'deleteGlossaryTerm', tag, body: 'none', summary: 'Delete a term and its translations', responses: { 204: null, 404: null } }),
    validParams(TermParam),
    noBody(),
    async (c) => {
      await deleteTerm(c.get('deps'), { ...keyScope(c), termId: c.req.valid('param').term_id });
      return c.body(null, 204);
    },
  );

export const glossaryGroup = routeGroup('glossary', routes);
