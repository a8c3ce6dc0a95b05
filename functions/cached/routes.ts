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
import { isNotModified, isNotModifiedSince, pickEncoding } from '../http/conditional.ts';
import { routeGroup } from '../http/route-group.ts';
import { addHeaders, respond } from '../http/response-headers.ts';
import { LanguageCode } from '../../core/languages/language-code.ts';
import {
  BuildId,
  cachedBuildGroup,
  cachedBuildLanguage,
  cachedGroup,
  cachedLanguage,
  cachedManifest,
  cachedValue,
  type CachedFile,
} from '../../core/cache/read-cached.ts';
import { Manifest, ManifestLanguage } from '../../core/manifest/schemas.ts';
import { validParams, validQuery } from '../http/validate.ts';
import { GroupTranslations, LanguageTranslations } from '../../core/translations/schemas.ts';

const tag = 'Cached translations';

/**
 * The mutable paths (they answer for the current build): edge and client caches may keep an answer a
 * minute; after that they revalidate (a cheap 304). For 5 minutes more a cache may serve the old
 * answer while it revalidates in the background, and for a day while the origin fails (5xx or
 * unreachable): an app and an edge keep working through an outage. On AWS a build invalidates the
 * paths it changed at CloudFront at once (core/cache/edge-invalidation.ts).
 */
export const CACHED_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300, stale-if-error=86400';
/**
 * The versioned build URLs: a build id never names two contents, so an app keeps them for a year. A
 * shared cache (CloudFront) asks the origin again after 300 s: its copy is keyed on the API key, and
 * a revoked key must stop reading there within the bound every cached path keeps (docs/deploy.md).
 */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, s-maxage=300, immutable';
/**
 * A mutable path that names its language in another spelling than the canonical one ("pt-br",
 * "PT-BR" for "pt-BR"): answered the same, but for the client's own cache only. CloudFront keys
 * copies on the path as sent and a build invalidates the canonical spelling only (invalidation paths
 * are case-sensitive), so a public copy under another spelling would show the previous build at the
 * edge for up to its 300 s maximum. `private` keeps it out of the edge (but for the cache policy's
 * 1 s minimum TTL); the app's own cache keeps it as long as a canonical answer, revalidating the same
 * way. No redirect: an app that writes its codes in lower case would pay a round trip on every read.
 */
export const PRIVATE_CACHE_CONTROL = 'private, max-age=60, stale-while-revalidate=300, stale-if-error=86400';
const NO_STORE = { 'Cache-Control': 'no-store' };
// X-API-Key selects the project: a shared cache must key on it (CloudFront puts it in its key).
const VARY = 'Accept-Encoding, X-API-Key';

const GroupParams = v.object({ language: LanguageCode, group: v.string() });
const KeyParams = v.object({ language: LanguageCode, group: v.string(), key: v.string() });
const BuildLanguageParams = v.object({ build_id: BuildId, language: LanguageCode });
const BuildGroupParams = v.object({ ...BuildLanguageParams.entries, group: v.string() });
/** ?fallback: true (the default: the chain applied), false (the raw file), explain (with `sources`). */
const FallbackQuery = v.object({
  fallback: v.pipe(
    v.optional(v.picklist(['true', 'false', 'explain'], 'fallback must be true, false or explain'), 'true'),
    v.description(
      "true (default): with the project's fallback chain applied, every key present; false: the language's own values only; explain: as true, plus `fallbacks` (the chain) and `sources` (key -> the language each filled value came from)",
    ),
  ),
});
const variantOf = (fallback: 'true' | 'false' | 'explain') => (fallback === 'true' ? 'default' : fallback === 'false' ? 'raw' : 'explain');
const CachedValue = v.object({ value: v.string() });
// The bodies a build stores: the live reads' shapes with status=approved, so each value is a string.
const approvedOnly = { status_filter: v.literal('approved'), translations: v.record(v.string(), v.string()) };
const explained = {
  fallbacks: v.optional(v.array(v.string())),
  sources: v.optional(v.record(v.string(), v.string())),
};
const CachedLanguage = v.object({ ...LanguageTranslations.entries, ...approvedOnly, ...explained });
const CachedGroup = v.object({ ...GroupTranslations.entries, ...approvedOnly, ...explained });
/** The spec's manifest plus the build it describes and, per language, its current file's URL and ETag. */
const CachedManifest = v.object({
  ...Manifest.entries,
  build_id: v.string(),
  built_at: v.string(),
  languages: v.array(
    v.object({
      ...ManifestLanguage.entries,
      url: v.pipe(v.string(), v.description('The versioned URL of this language\'s file in this build (cached for a year)')),
      etag: v.pipe(v.string(), v.description('That file\'s strong ETag (its identity encoding)')),
    }),
  ),
});

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
function cachingHeaders(etag: string, builtAt: string, cacheControl = CACHED_CACHE_CONTROL): Record<string, string> {
  if (builtAt !== lastBuiltAt) {
    lastModified = new Date(builtAt).toUTCString();
    lastBuiltAt = builtAt;
  }
  return { ETag: etag, 'Cache-Control': cacheControl, Vary: VARY, 'Last-Modified': lastModified };
}

/**
 * The conditional part of a cached read: If-None-Match against the etags, else If-Modified-Since
 * against Last-Modified. HTTP dates count whole seconds, so a build published within the second of
 * the build before it shares that build's Last-Modified (`datedApart` false): a date alone cannot say
 * which of the two a client holds, so it never earns a 304 from that build (docs/decisions.md). The
 * ETag, sent with every answer and preferred by every HTTP cache, is exact.
 */
function unchanged(c: Context<AppEnv>, etags: readonly string[], headers: Record<string, string>, datedApart: boolean): boolean {
  const ifNoneMatch = c.req.header('if-none-match');
  if (ifNoneMatch !== undefined) return isNotModified(ifNoneMatch, etags);
  return datedApart && isNotModifiedSince(c.req.header('if-modified-since'), headers['Last-Modified']!);
}

const TRANSLATIONS_SEGMENT = '/translations/';

/**
 * Whether the request's path names its language as `language` (the canonical code) does, byte for
 * byte: the spelling a build invalidates at the edge (core/cache/edge-invalidation.ts). Read from the
 * raw URL, as CloudFront keys it: a lower-case or percent-encoded spelling is another edge copy even
 * though it reads as the same code here. The mutable paths hold one `/translations/` segment, before
 * the language; what follows the language (group, key, query) is covered by the `/<code>*` path.
 */
function canonicalSpelling(c: Context<AppEnv>, language: string): boolean {
  const url = c.req.url;
  const at = url.indexOf(TRANSLATIONS_SEGMENT);
  if (at < 0) return false;
  const start = at + TRANSLATIONS_SEGMENT.length;
  if (!url.startsWith(language, start)) return false;
  const after = url.charCodeAt(start + language.length);
  return Number.isNaN(after) || after === 47 /* / */ || after === 63 /* ? */ || after === 35 /* # */;
}

/** The Cache-Control of a mutable language path: public (edge-cacheable) only for the canonical spelling. */
const languageCacheControl = (c: Context<AppEnv>, language: string) =>
  canonicalSpelling(c, language) ? CACHED_CACHE_CONTROL : PRIVATE_CACHE_CONTROL;

async function serveFile(c: Context<AppEnv>, file: CachedFile, options: { encodings?: boolean; cacheControl?: string } = {}): Promise<Response> {
  const encoding = options.encodings === false ? 'identity' : pickEncoding(c.req.header('accept-encoding'));
  const headers = cachingHeaders(file.entry.etags[encoding], file.builtAt, options.cacheControl);
  if (unchanged(c, Object.values(file.entry.etags), headers, file.datedApart)) return respond(c, null, 304, headers);
  const body = await file.load(encoding);
  headers['Content-Type'] = 'application/json';
  if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
  return respond(c, body as Uint8Array<ArrayBuffer>, 200, headers);
}

const routes = new Hono<AppEnv>()
  .use('*', function noStoreUnlessServed(c, next) {
    // Errors (503 before the first build, 404s) must never be cached by an edge or a client. A
    // pending header, so a served file's own Cache-Control wins without a Headers object per request.
    addHeaders(c, NO_STORE);
    return next();
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
      summary: 'Languages of the last build, with their approved counts and the versioned URL of each file',
      responses: cachedRead(CachedManifest),
    }),
    async (c) => serveFile(c, await cachedManifest(c.get('deps'), { projectId: c.get('principal').projectId }), { encodings: false }),
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
    validQuery(FallbackQuery),
    async (c) => {
      const { language } = c.req.valid('param');
      const variant = variantOf(c.req.valid('query').fallback);
      const file = await cachedLanguage(c.get('deps'), { projectId: c.get('principal').projectId, language, variant });
      return serveFile(c, file, { cacheControl: languageCacheControl(c, language) });
    },
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
    validQuery(FallbackQuery),
    async (c) => {
      const { language, group } = c.req.valid('param');
      const variant = variantOf(c.req.valid('query').fallback);
      const file = await cachedGroup(c.get('deps'), { projectId: c.get('principal').projectId, language, group, variant });
      return serveFile(c, file, { cacheControl: languageCacheControl(c, language) });
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
    validQuery(FallbackQuery),
    async (c) => {
      const { language, group, key } = c.req.valid('param');
      const variant = variantOf(c.req.valid('query').fallback);
      const { body, etag, builtAt, datedApart } = await cachedValue(c.get('deps'), { projectId: c.get('principal').projectId, language, group, key, variant });
      const headers = cachingHeaders(etag, builtAt, languageCacheControl(c, language));
      if (unchanged(c, [etag], headers, datedApart)) return respond(c, null, 304, headers);
      headers['Content-Type'] = 'application/json';
      return respond(c, body, 200, headers);
    },
  )
  .get(
    '/builds/:build_id/translations/:language',
    describe({
      operationId: 'readBuildLanguageTranslations',
      tag,
      headers: ['IfNoneMatch'],
      summary: "A language's approved translations in a named build (immutable: cached for a year)",
      responses: { ...cachedRead(CachedLanguage), 404: null },
    }),
    validParams(BuildLanguageParams),
    validQuery(FallbackQuery),
    async (c) => {
      const { build_id: buildId, language } = c.req.valid('param');
      const variant = variantOf(c.req.valid('query').fallback);
      const file = await cachedBuildLanguage(c.get('deps'), { projectId: c.get('principal').projectId, buildId, language, variant });
      return serveFile(c, file, { cacheControl: IMMUTABLE_CACHE_CONTROL });
    },
  )
  .get(
    '/builds/:build_id/translations/:language/:group',
    describe({
      operationId: 'readBuildGroupTranslations',
      tag,
      headers: ['IfNoneMatch'],
      summary: "A group's approved translations in a named build (immutable: cached for a year)",
      responses: { ...cachedRead(CachedGroup), 404: null },
    }),
    validParams(BuildGroupParams),
    validQuery(FallbackQuery),
    async (c) => {
      const { build_id: buildId, language, group } = c.req.valid('param');
      const variant = variantOf(c.req.valid('query').fallback);
      const file = await cachedBuildGroup(c.get('deps'), { projectId: c.get('principal').projectId, buildId, language, group, variant });
      return serveFile(c, file, { cacheControl: IMMUTABLE_CACHE_CONTROL });
    },
  );

export const cachedRoutesGroup = routeGroup('cached', routes);
