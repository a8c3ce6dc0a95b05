// The HTTP API: one Lambda per route group of functions/catalogue.ts (functions/<dir>/handler.ts, a
// Hono app mounting that group), each mounted at its own path prefix on one API Gateway HTTP API, with a CloudFront
// distribution in front that caches /v1/cached/* at the edge and passes everything else through.
// Runtime and architecture are set for every Function in sst.config.ts.
import { databaseEnvironment } from './secrets.ts';
import { EDGE_CACHED_QUERY_STRINGS, HTTP_FUNCTION_TIMEOUT_SECONDS, machineTranslationEnvironment, upgradeEnvironment } from './deploy-settings.ts';
import { rebuildDeadLetterQueue, rebuildQueue } from './queue.ts';
import { linksOf } from './links.ts';
import { HTTP_FUNCTIONS, handlerOf, type CatalogueEntry, type HttpFunctionName } from '../functions/catalogue.ts';
import { EXPOSED_HEADERS } from '../functions/http/exposed-headers.ts';

export const api = new sst.aws.ApiGatewayV2('Api', {
  cors: {
    // Browsers fetch translations with an X-API-Key header, not cookies, so any origin may call.
    allowOrigins: ['*'],
    // '*' alone does not cover Authorization (Fetch: the wildcard never includes it), which the
    // admin API's Bearer token needs from a browser; the local server lists it too.
    allowHeaders: ['authorization', '*'],
    allowMethods: ['*'],
    // Not CORS-safelisted: a browser's script could not read them otherwise.
    exposeHeaders: EXPOSED_HEADERS,
  },
});

// Each stage counts under its own prefix, so stages can share one Upstash database. The per-address
// failed-auth limit stays off: behind CloudFront every caller has CloudFront's address (docs/operations.md).
const apiEnvironment = { ...databaseEnvironment, ...upgradeEnvironment(process.env), LOG_REQUESTS: 'true', REDIS_KEY_PREFIX: `tms:${$app.stage}:` };
const mtEnvironment = { ...apiEnvironment, ...machineTranslationEnvironment(process.env) };

function routeGroupFunction(entry: CatalogueEntry & { prefix: string }) {
  const fn = new sst.aws.Function(`${entry.component}Function`, {
    handler: handlerOf(entry),
    description: `tms ${entry.prefix}: ${entry.purpose}`,
    memory: '512 MB',
    timeout: `${HTTP_FUNCTION_TIMEOUT_SECONDS} seconds`,
    link: linksOf(entry.ports, { rebuildQueue, rebuildDeadLetterQueue }),
    environment: entry.ports.includes('machineTranslation') ? mtEnvironment : apiEnvironment,
  });
  // `{proxy+}` needs at least one more segment, so the bare prefix gets its own route.
  for (const routeKey of [`ANY ${entry.prefix}`, `ANY ${entry.prefix}/{proxy+}`, ...(entry.extraRoutes ?? []).map((r) => `ANY ${r}`)]) {
    api.route(routeKey, fn.arn);
  }
  return fn;
}

// One Lambda per HTTP entry of the catalogue, linked to what its ports name.
export const functions = Object.fromEntries(HTTP_FUNCTIONS.map((entry) => [entry.name, routeGroupFunction(entry)])) as Record<
  HttpFunctionName,
  sst.aws.Function
>;

// Anything no group claims gets the spec's { "detail": ... } 404 from a Hono app rather than API
// Gateway's own {"message":"Not Found"}. The health function is the smallest app to answer it.
api.route('$default', functions.health.arn);

// ---------------------------------------------------------------------------------------------
// CloudFront in front of the API.
//
// Only GET/HEAD under /v1/cached/* is cached. Those responses are prebuilt per project and change
// only when a rebuild completes (the spec already allows 1-2 minutes of staleness), and they are the
// ones with a sub-50 ms p99 target, which an edge hit meets and a Lambda cold start does not.
//
// Cache key for /v1/cached/*: the path, X-API-Key, X-Project-Id, Origin and the normalised
// Accept-Encoding. Nothing else reaches the origin on a GET, so nothing else can change a response.
// - X-API-Key: a cached body is only ever served to callers presenting the same key, so no project
//   sees another's data and a wrong key never gets a hit (it misses and gets its 401 from origin).
// - X-Project-Id: the auth middleware answers 403 when it names another project; keyed, a 200 and
//   a 403 for the same key cannot be served in each other's place.
// - Origin: API Gateway adds Access-Control-Allow-Origin only when the request has an Origin, so an
//   entry cached from a server-side call (no Origin) would break browsers if Origin were not keyed.
// - Accept-Encoding: enableAcceptEncodingBrotli/Gzip make CloudFront reduce the header to br, gzip
//   or nothing before keying, instead of one entry per browser's exact header string.
// - One query string, `fallback` (true | false | explain: which variant of a file with a fallback
//   chain), and no cookies: keying on any other query string would let any caller defeat the cache
//   with ?x=random. Other query strings are not forwarded either, so they cannot vary an answer.
//
// TTL: 60 s when the origin sends no Cache-Control, never more than 300 s whatever it sends, so a
// revoked key shows at the edge within 5 minutes at worst; a finished rebuild shows at once, as the
// builder invalidates the paths it changed (EdgeCache below). The origin sends max-age=60 with
// stale-while-revalidate=300 and stale-if-error=86400, which CloudFront honours: it serves a stale
// answer while it revalidates, and through an origin outage for a day. The origin's
// Cache-Control (max-age, s-maxage) is honoured within those bounds. The minimum is 1 s, not 0:
// AWS documents that with a minimum TTL of 0 CloudFront does not cache compressed content (CloudFront
// Developer Guide, "Serve compressed files"), and translation JSON is what most needs compressing. A side effect is that no-store responses
// are still held for 1 s; errors are governed by customErrorResponses below instead.
//
// Revalidation: CloudFront passes the origin's ETag through (weakened to W/"..." when CloudFront
// itself compresses the body). A viewer's If-None-Match that matches the cached entry gets a 304
// straight from the edge; when an entry expires CloudFront revalidates it with If-None-Match and
// the origin can answer 304 without a body, which refreshes the TTL. The origin should compare
// ETags weakly (ignore a W/ prefix).
//
// Consequences: edge hits never reach Lambda, so they are neither counted against the daily call
// quota nor logged by the function (CloudFront's own logs/metrics see them), and a revoked key keeps
// reading cached translations for up to the TTL.
// ---------------------------------------------------------------------------------------------

// AWS managed policies: fixed ids, identical in every account.
const managedCachePolicy = { cachingDisabled: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad' };
const managedOriginRequestPolicy = { allViewerExceptHostHeader: 'b689b0a8-53d0-40ab-baf2-68738e2966ac' };

type CachedPattern = (typeof EDGE_CACHED_QUERY_STRINGS)[number]['pathPattern'];

/**
 * A cache policy for the cached paths: keyed by path, X-API-Key, X-Project-Id, Origin, the
 * normalised encoding and the query strings EDGE_CACHED_QUERY_STRINGS gives `pathPattern` (what
 * edge invalidation covers); held 1 s at least, `maxTtl` at most.
 */
function cachedPathsPolicy(name: string, pathPattern: CachedPattern, maxTtl: number, comment: string) {
  const items = EDGE_CACHED_QUERY_STRINGS.find((e) => e.pathPattern === pathPattern)!.queryStrings;
  return new aws.cloudfront.CachePolicy(name, {
    comment: `tms ${pathPattern}: ${comment}`,
    minTtl: 1,
    defaultTtl: 60,
    maxTtl,
    parametersInCacheKeyAndForwardedToOrigin: {
      headersConfig: {
        headerBehavior: 'whitelist',
        headers: { items: ['x-api-key', 'x-project-id', 'origin'] },
      },
      cookiesConfig: { cookieBehavior: 'none' },
      queryStringsConfig: items.length ? { queryStringBehavior: 'whitelist', queryStrings: { items: [...items] } } : { queryStringBehavior: 'none' },
      enableAcceptEncodingBrotli: true,
      enableAcceptEncodingGzip: true,
    },
  });
}

const cachedEndpointsCachePolicy = cachedPathsPolicy('CachedEndpointsCachePolicy', '/v1/cached/*', 300, 'keyed by path, X-API-Key, X-Project-Id, Origin, encoding');

// The manifest: keyed as /v1/cached/* but on no query string. It takes none, and every build
// invalidates it by its exact path, which would leave a `?fallback=…` copy an old build's for 300 s.
const cachedManifestCachePolicy = cachedPathsPolicy('CachedManifestCachePolicy', '/v1/cached/manifest', 300, 'keyed like /v1/cached/* without query strings');

// The versioned build URLs, /v1/cached/builds/<build>/...: a build id names one content forever, and
// the origin answers with `public, max-age=31536000, s-maxage=300, immutable`: apps keep them a year,
// CloudFront 300 s. Keyed exactly as the mutable paths: X-API-Key stays in the key, so a build URL is
// only ever served to the key that fetched it (another project's key misses and gets its 404 from
// the origin), and that copy must not outlive the key's revocation by more than the 300 s every
// cached path keeps; asking again costs a 304. Never invalidated: a new build has new URLs.
const buildUrlsCachePolicy = cachedPathsPolicy('BuildUrlsCachePolicy', '/v1/cached/builds/*', 300, 'immutable for apps, 300 s at the edge; keyed like /v1/cached/*');

// CORS preflights (OPTIONS, never cached) need these two headers at API Gateway to be answered.
// GETs never carry them, so forwarding them cannot vary a cached response.
const cachedEndpointsOriginRequestPolicy = new aws.cloudfront.OriginRequestPolicy(
  'CachedEndpointsOriginRequestPolicy',
  {
    comment: 'tms /v1/cached/*: CORS preflight headers',
    headersConfig: {
      headerBehavior: 'whitelist',
      headers: { items: ['access-control-request-method', 'access-control-request-headers'] },
    },
    cookiesConfig: { cookieBehavior: 'none' },
    queryStringsConfig: { queryStringBehavior: 'none' },
  },
);

const apiOriginId = 'api';

export const cdn = new sst.aws.Cdn('ApiCdn', {
  comment: `tms ${$app.stage} API`,
  origins: [
    {
      originId: apiOriginId,
      domainName: api.url.apply((url) => new URL(url).host),
      customOriginConfig: {
        httpPort: 80,
        httpsPort: 443,
        originProtocolPolicy: 'https-only',
        originSslProtocols: ['TLSv1.2'],
        // API Gateway's own integration limit; waiting longer would only delay the 504.
        originReadTimeout: 30,
      },
    },
  ],
  // Everything but /v1/cached/*: never cached, every viewer header except Host (API Gateway routes
  // on its own host name), every query string and cookie passed to the origin.
  defaultCacheBehavior: {
    targetOriginId: apiOriginId,
    // An API key sent over plain HTTP is already exposed; refuse rather than redirect.
    viewerProtocolPolicy: 'https-only',
    allowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
    cachedMethods: ['GET', 'HEAD'],
    compress: true,
    cachePolicyId: managedCachePolicy.cachingDisabled,
    originRequestPolicyId: managedOriginRequestPolicy.allViewerExceptHostHeader,
  },
  // In order of precedence (EDGE_CACHED_QUERY_STRINGS's): the build URLs and the manifest first, as
  // /v1/cached/* matches them too.
  orderedCacheBehaviors: [
    {
      pathPattern: '/v1/cached/builds/*',
      targetOriginId: apiOriginId,
      viewerProtocolPolicy: 'https-only',
      allowedMethods: ['GET', 'HEAD', 'OPTIONS'],
      cachedMethods: ['GET', 'HEAD'],
      compress: true,
      cachePolicyId: buildUrlsCachePolicy.id,
      originRequestPolicyId: cachedEndpointsOriginRequestPolicy.id,
    },
    {
      pathPattern: '/v1/cached/manifest',
      targetOriginId: apiOriginId,
      viewerProtocolPolicy: 'https-only',
      allowedMethods: ['GET', 'HEAD', 'OPTIONS'],
      cachedMethods: ['GET', 'HEAD'],
      compress: true,
      cachePolicyId: cachedManifestCachePolicy.id,
      originRequestPolicyId: cachedEndpointsOriginRequestPolicy.id,
    },
    {
      pathPattern: '/v1/cached/*',
      targetOriginId: apiOriginId,
      viewerProtocolPolicy: 'https-only',
      allowedMethods: ['GET', 'HEAD', 'OPTIONS'],
      cachedMethods: ['GET', 'HEAD'],
      compress: true,
      cachePolicyId: cachedEndpointsCachePolicy.id,
      originRequestPolicyId: cachedEndpointsOriginRequestPolicy.id,
    },
  ],
  // CloudFront caches some 4xx/5xx answers for 10 s by default. A 503 from a cached endpoint means
  // "no rebuild has completed yet" and must clear as soon as one has; other 5xx are transient.
  customErrorResponses: [500, 502, 503, 504].map((errorCode) => ({ errorCode, errorCachingMinTtl: 0 })),
  transform: {
    distribution: (args) => {
      args.httpVersion = 'http2and3';
      args.isIpv6Enabled = true;
    },
  },
});

// What the builder links (stacks/builder.ts) to invalidate, after each build, the mutable cached
// paths the build changed: the distribution's id (Resource.EdgeCache.distributionId, read by
// functions/lambda/resource-env.ts) and the one permission it needs, on this distribution only.
// CloudFront invalidates a path for every cache key (every X-API-Key): a build of one project also
// drops other projects' edge copies of the same paths, which then cost one origin request each.
const distribution = cdn.nodes.distribution;
export const edgeCache = new sst.Linkable('EdgeCache', {
  properties: { distributionId: distribution.apply((d) => d.id) },
  include: [
    sst.aws.permission({
      actions: ['cloudfront:CreateInvalidation'],
      resources: [distribution.apply((d) => d.arn)],
    }),
  ],
});
