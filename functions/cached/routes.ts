// The hot path: apps fetch their translations here. Bodies come from the built cache as stored
// bytes (pre-compressed), with strong ETags and 304s answered from memory; no database read.
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { apiKeyAuth, deliveryLanguages } from '../http/api-key-auth.ts';
import { deliveryManifest } from './delivery-manifest.ts';
import { dailyQuota } from '../http/daily-quota.ts';
import { describe, type HeaderName } from '../http/describe.ts';
import { LanguageParam } from '../http/params.ts';
import { validParams } from '../http/validate.ts';
import { isNotModified, pickEncoding } from '../http/conditional.ts';
import { routeGroup } from '../http/route-group.ts';
import { addHeaders, respond } from '../http/response-headers.ts';
import { LanguageCode } from '../../core/languages/language-code.ts';
import { cachedGroup, cachedLanguage, cachedManifest, cachedValue, type CachedFile } from '../../core/cache/read-cached.ts';
import { Manifest } from '../../core/manifest/schemas.ts';
import { GroupTranslations, LanguageTranslations } from '../../core/translations/schemas.ts';

const tag = 'Cached translations';

/** Edge and client caches may keep a response a minute; after that they revalidate (a cheap 304). */
export const CACHED_CACHE_CONTROL = 'public, max-age=60';
const NO_STORE = { 'Cache-Control': 'no-store' };
// X-API-Key selects the project: a shared cache must key on it (CloudFront puts it in its key).
const VARY = 'Accept-Encoding, X-API-Key';

const GroupParams = v.object({ language: LanguageCode, group: v.string() });
const KeyParams = v.object({ language: LanguageCode, group: v.string(), key: v.string() });
const CachedValue = v.object({ value: v.string() });
// The bodies a build stores: the live reads' shapes with status=approved, so each value is a string.
const approvedOnly = { status_filter: v.literal('approved'), translations: v.record(v.string(), v.string()) };
const CachedLanguage = v.object({ ...LanguageTranslations.entries, ...approvedOnly });
const CachedGroup = v.object({ ...GroupTranslations.entries, ...approvedOnly });

const CACHING_HEADERS: HeaderName[] = ['ETag', 'Cache-Control', 'Last-Modified', 'Vary'];
/** A cached read's answers: the body with its validators, a 304 on a current If-None-Match, 503 before the first build. */
const cachedRead = (body: v.GenericSchema) => ({
  200: { schema: body, headers: CACHING_HEADERS },
  304: { headers: CACHING_HEADERS },
  503: null,
});

// Builds change rarely: format each build time as an HTTP date once, not per request.
let lastBuiltAt = '';
let lastModified = '';
function cachingHeaders(etag: string, builtAt: string): Record<string, string> {
  if (builtAt !== lastBuiltAt) {
    lastModified = new Date(builtAt).toUTCString();
    lastBuiltAt = builtAt;
  }
  return { ETag: etag, 'Cache-Control': CACHED_CACHE_CONTROL, Vary: VARY, 'Last-Modified': lastModified };
}

async function serveFile(c: Context<AppEnv>, file: CachedFile, encodings = true): Promise<Response> {
  const encoding = encodings ? pickEncoding(c.req.header('accept-encoding')) : 'identity';
  const headers = cachingHeaders(file.entry.etags[encoding], file.builtAt);
  if (isNotModified(c.req.header('if-none-match'), Object.values(file.entry.etags))) return respond(c, null, 304, headers);
  const body = await file.load(encoding);
  headers['Content-Type'] = 'application/json';
  if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
  return respond(c, body as Uint8Array<ArrayBuffer>, 200, headers);
}

const routes = new Hono<AppEnv>()
  .use('*', async (c, next) => {
    // Errors (503 before the first build, 404s) must never be cached by an edge or a client. A
    // pending header, so a served file's own Cache-Control wins without a Headers object per request.
    addHeaders(c, NO_STORE);
    await next();
  })
  // Delivery keys read here (and only here): language-bound ones only their languages, on every
  // route whose path names a :language, and a manifest listing only those (docs/decisions.md).
  .use('*', apiKeyAuth({ delivery: true }))
  .use('/translations/:language/*', deliveryLanguages())
  .use('/builds/:build_id/translations/:language/*', deliveryLanguages())
  .use('*', dailyQuota())
  .use('/manifest', deliveryManifest())
  .get(
    '/manifest',
    describe({
      operationId: 'readCachedManifest',
      tag,
      input: false,
      headers: ['IfNoneMatch'],
      summary: 'Languages of the last build, with their approved counts',
      responses: cachedRead(Manifest),
    }),
    async (c) => serveFile(c, await cachedManifest(c.get('deps'), { projectId: c.get('principal').projectId }), false),
  )
  .get(
    '/translations/:language',
    describe({
      operationId: 'readCachedLanguageTranslations',
      tag,
      headers: ['IfNoneMatch'],
      summary: "A language's approved translations as of the last build",
      responses: { ...cachedRead(CachedLanguage), 404: null },
    }),
    validParams(LanguageParam),
    async (c) => serveFile(c, await cachedLanguage(c.get('deps'), { projectId: c.get('principal').projectId, ...c.req.valid('param') })),
  )
  .get(
    '/translations/:language/:group',
    describe({
      operationId: 'readCachedGroupTranslations',
      tag,
      headers: ['IfNoneMatch'],
      summary: "A group's approved translations as of the last build",
      responses: { ...cachedRead(CachedGroup), 404: null },
    }),
    validParams(GroupParams),
    async (c) => {
      const { language, group } = c.req.valid('param');
      return serveFile(c, await cachedGroup(c.get('deps'), { projectId: c.get('principal').projectId, language, group }));
    },
  )
  .get(
    '/translations/:language/:group/:key',
    describe({
      operationId: 'readCachedKeyTranslation',
      tag,
      headers: ['IfNoneMatch'],
      summary: 'One approved value as of the last build',
      responses: { ...cachedRead(CachedValue), 404: null },
    }),
    validParams(KeyParams),
    async (c) => {
      const { language, group, key } = c.req.valid('param');
      const { body, etag, builtAt } = await cachedValue(c.get('deps'), { projectId: c.get('principal').projectId, language, group, key });
      const headers = cachingHeaders(etag, builtAt);
      if (isNotModified(c.req.header('if-none-match'), [etag])) return respond(c, null, 304, headers);
      headers['Content-Type'] = 'application/json';
      return respond(c, body, 200, headers);
    },
  );

export const cachedRoutesGroup = routeGroup('cached', routes);
