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
import { respond, respondJson } from '../http/response-headers.ts';
import { MAX_BODY_BYTES, requestBodyLimit } from '../http/body-limit.ts';
import { routeGroup } from '../http/route-group.ts';
import { Uuid } from '../../core/validation.ts';
import {
  CreateTermInput,
  ExportGlossaryQuery,
  GlossaryImportResult,
  GlossaryTerm,
  ImportGlossaryQuery,
  ListTermsQuery,
  TERM_MAX_CHARS,
  TermList,
  TERMS_PER_PROJECT_MAX,
  UpdateTermInput,
} from '../../core/glossary/schemas.ts';
import { importGlossary } from '../../core/glossary/import-glossary.ts';
import { exportGlossary } from '../../core/glossary/export-glossary.ts';
import { listTerms } from '../../core/glossary/list-terms.ts';
import { getTerm } from '../../core/glossary/get-term.ts';
import { createTerm } from '../../core/glossary/create-term.ts';
import { updateTerm } from '../../core/glossary/update-term.ts';
import { deleteTerm } from '../../core/glossary/delete-term.ts';

const tag = 'Glossary';
const TermParam = v.object({ term_id: Uuid });

/** A term base is a file: up to 10 MiB, as a translation file's import (AWS: see docs/deploy.md). */
export const MAX_GLOSSARY_FILE_BYTES = 10 * 1024 * 1024;
const GLOSSARY_MEDIA_TYPES = ['text/csv', 'application/x-tbx+xml', 'application/xml', 'text/xml', 'application/octet-stream'];

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota())
  // The file routes first, with the files' body limit: a route's answer ends the chain, so the JSON
  // routes' 1 MiB limit registered after them never applies to them.
  .post(
    '/import',
    requestBodyLimit(MAX_GLOSSARY_FILE_BYTES),
    describe({
      operationId: 'importGlossary',
      tag,
      summary: 'Import a glossary file (CSV or TBX) into the glossary, all or nothing',
      description:
        'The body is the raw file, up to 10 MiB. format=csv (default): a header row with term (or the source language\'s code), ' +
        'description, translatable, case_sensitive (yes/no, true/false, 1/0) and a column per language; other columns are ignored with ' +
        'a warning. format=tbx: TBX 2008 (<martif>) or TBX 2019 (<tbx>), each entry\'s source-language term with its translations and ' +
        'definition. A term is matched to the glossary\'s by its spelling in any case: new terms are added, known ones take what the file ' +
        'gives; an empty cell changes nothing and nothing is removed. Languages the project does not have are skipped with a warning. ' +
        'dry_run=true answers the same and writes nothing. A file that cannot be read, or a term over a field limit, is 422 and writes ' +
        `nothing, as is a file that would take the glossary past ${TERMS_PER_PROJECT_MAX.toLocaleString('en-US')} terms. Recorded as one glossary.imported event; nothing served changes.`,
      body: {
        mediaTypes: GLOSSARY_MEDIA_TYPES,
        maxBytes: MAX_GLOSSARY_FILE_BYTES,
        description: 'The glossary file itself, in the format ?format names (any Content-Type is accepted).',
      },
      responses: { 200: GlossaryImportResult, 409: null },
    }),
    validQuery(ImportGlossaryQuery),
    async (c) => {
      const { format, dry_run } = c.req.valid('query');
      const body = new Uint8Array(await c.req.arrayBuffer());
      return c.json(await importGlossary(c.get('deps'), { ...keyScope(c), format, dryRun: dry_run, body }));
    },
  )
  .get(
    '/export',
    describe({
      operationId: 'exportGlossary',
      tag,
      summary: 'The whole glossary as a file: CSV or TBX',
      description:
        'format=csv (default): term, description, translatable, case_sensitive and a column per language of the project other than ' +
        'its source, one row per term in the order of its spelling. format=tbx: TBX-Basic 2008, one termEntry per term with its ' +
        'definition and a langSet per language; case_sensitive and do-not-translate terms carry x-caseSensitive and x-doNotTranslate ' +
        'term notes. Either imports back unchanged (POST /v1/glossary/import).',
      responses: {
        200: {
          description: 'The file, text/csv or application/x-tbx+xml (charset=utf-8), as an attachment',
          content: { 'text/csv': { schema: { type: 'string' } }, 'application/x-tbx+xml': { schema: { type: 'string' } } },
          headers: ['Cache-Control', 'Content-Disposition'],
        },
      },
    }),
    validQuery(ExportGlossaryQuery),
    async (c) => {
      const file = await exportGlossary(c.get('deps'), { projectId: c.get('principal').projectId, format: c.req.valid('query').format });
      return respond(c, file.body as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': file.contentType,
        'Content-Disposition': `attachment; filename="${file.filename}"`,
        'Cache-Control': 'private, no-cache',
      });
    },
  )
  .use('*', requestBodyLimit(MAX_BODY_BYTES))
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

export const glossaryGroup = routeGroup('glossary', routes, { maxBodyBytes: MAX_GLOSSARY_FILE_BYTES, limitsItsOwnBody: true });
