// The OpenAPI description of every route, from the same valibot schemas the routes validate with and
// core returns. A route states its operationId (what generated clients name their methods: stable
// across path changes, never derived from the path), what it answers, and what it takes; the rest
// follows from its auth: 401, 403 and 429 for API keys, 401 for the admin token, 500 everywhere.
// Errors all answer with one envelope, #/components/schemas/Error, through shared responses.
// OPENAPI_OPTIONS is the document around the operations (security schemes, those shared responses,
// tags): createApi serves it at /openapi.json, scripts/openapi.ts writes it for the health Lambda.
import { describeRoute, resolver, uniqueSymbol, type DescribeRouteOptions, type GenerateSpecOptions } from 'hono-openapi';
import type { MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import type { PreconditionFailedData, QuotaExceededData, ValidationIssue as CoreValidationIssue } from '../../core/errors.ts';

// ---------------------------------------------------------------------------------------------
// The error envelope (spec section 7): detail is a string, the 422 issues, or the quota's object.

const ValidationIssue = v.pipe(
  v.object({ loc: v.array(v.union([v.string(), v.number()])), msg: v.string(), type: v.string() }),
  v.metadata({ ref: 'ValidationIssue', description: 'Where the input was refused (loc: body, path or query, then the field) and why.' }),
);

const QuotaExceeded = v.pipe(
  v.object({
    code: v.literal('QUOTA_EXCEEDED'),
    used: v.number(),
    limit: v.number(),
    reset_date: v.string(),
    upgrade_url: v.string(),
  }),
  v.metadata({ ref: 'QuotaExceeded', description: "The monthly translation-unit quota's 402 detail." }),
);

const PreconditionFailed = v.pipe(
  v.object({
    code: v.literal('PRECONDITION_FAILED'),
    message: v.string(),
    conflicts: v.array(
      v.object({
        key_id: v.string(),
        language: v.string(),
        expected: v.union([v.number(), v.literal('*'), v.null()]),
        current: v.nullable(v.number()),
      }),
    ),
  }),
  v.metadata({
    ref: 'PreconditionFailed',
    description: "412's detail: the values whose version is not the one expected (expected: null for a create-only write, If-None-Match: *; current: null when gone).",
  }),
);

const ErrorEnvelope = v.pipe(
  v.object({ detail: v.union([v.string(), v.array(ValidationIssue), QuotaExceeded, PreconditionFailed]) }),
  v.metadata({
    ref: 'Error',
    description:
      'Every error: detail is a message, the list of validation issues (422), the quota object (402 QUOTA_EXCEEDED) or the version conflicts (412 PRECONDITION_FAILED).',
  }),
);

// The envelope's parts are typed in core; a change there that this description misses fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameIssue: Same<v.InferOutput<typeof ValidationIssue>, CoreValidationIssue> = true;
const sameQuota: Same<v.InferOutput<typeof QuotaExceeded>, QuotaExceededData> = true;
const samePrecondition: Same<v.InferOutput<typeof PreconditionFailed>, PreconditionFailedData> = true;
void sameIssue;
void sameQuota;
void samePrecondition;

// ---------------------------------------------------------------------------------------------
// Shared parts of the document: responses, headers and parameters the operations refer to.

const MiB = 1024 * 1024;
const errorContent = { 'application/json': { schema: resolver(ErrorEnvelope) } };
const header = (description: string, schema: object = { type: 'string' }) => ({ description, schema });

const HEADERS = {
  ETag: header(
    'Strong validator. Of the body on cached reads: send it back in If-None-Match to get a 304 while it is current. ' +
      "Of a translation value's version on its reads and writes: send it back in If-Match so that a write never overwrites a change made meanwhile.",
  ),
  'Cache-Control': header('How long a client or edge cache may keep the answer.'),
  'Last-Modified': header('When the cache build that made this body was published (HTTP date).'),
  Vary: header('Request headers the body depends on: Accept-Encoding, X-API-Key.'),
  'Content-Disposition': header('attachment, with the file name (<language>.<extension>).'),
  'Retry-After': header('Seconds until the daily quota resets (midnight UTC).', { type: 'integer' }),
  'WWW-Authenticate': header('How to authenticate: ApiKey realm="tms", header="X-API-Key" on the API, Bearer realm="tms admin" on the admin API.'),
  'X-RateLimit-Limit': header("The plan's daily API-call limit.", { type: 'integer' }),
  'X-RateLimit-Remaining': header('Calls left today.', { type: 'integer' }),
  'X-RateLimit-Reset': header('Seconds until the daily quota resets (midnight UTC).', { type: 'integer' }),
  RateLimit: header('"daily";r=<calls left>;t=<seconds to reset> (draft-ietf-httpapi-ratelimit-headers).'),
  'RateLimit-Policy': header('"daily";q=<limit>;w=86400.'),
} as const;
export type HeaderName = keyof typeof HEADERS;
const headerRef = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });
/**
 * The caller's daily standing (rate-limit-headers.ts): on every answer to an API key, success or
 * refusal, except on a plan without a daily limit (none then).
 */
const RATE_LIMIT_HEADERS: HeaderName[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit', 'RateLimit-Policy'];

/** Error statuses and the shared response each refers to. */
const ERRORS = {
  401: { name: 'Unauthorized', description: 'Missing, malformed or revoked API key (or admin token)' },
  402: { name: 'PaymentRequired', description: 'A plan limit is reached (detail: a message), or the monthly translation-unit quota (detail: QuotaExceeded)' },
  403: {
    name: 'Forbidden',
    description:
      'The API key belongs to another project than X-Project-Id names, or a delivery key (delivery_...) was used outside the cached reads, from an Origin or for a language it is not bound to',
  },
  404: { name: 'NotFound', description: 'Not found, or not in this project' },
  409: { name: 'Conflict', description: 'Conflicts with what exists (a duplicate name, a rename target in use)' },
  412: {
    name: 'PreconditionFailed',
    description:
      'If-Match (or expected_versions) names a version the value no longer has, or If-None-Match one it has (or *, and it exists): nothing was written (detail: PreconditionFailed)',
  },
  413: { name: 'TooLarge', description: 'Request body over the limit: 1 MiB for JSON bodies, 10 MiB for file imports' },
  415: { name: 'UnsupportedMediaType', description: 'The body is not application/json (an operation that takes no body accepts none, or {})' },
  422: { name: 'ValidationFailed', description: 'Invalid path, query or body, or a body field the operation does not take (detail: the list of issues)' },
  429: { name: 'RateLimited', description: 'Daily API-call quota exhausted beyond the grace zone; retry after Retry-After seconds' },
  500: { name: 'ServerError', description: 'Unexpected error, or a dependency is unavailable: retry once after 1 to 2 seconds' },
  502: { name: 'BadGateway', description: 'The machine translation provider failed or refused (its status in the message); nothing was written' },
  503: { name: 'NotReady', description: 'Not ready: no cache build has completed yet (POST /v1/cache/rebuild)' },
} as const;
type ErrorStatus = keyof typeof ERRORS;
const isErrorStatus = (status: number): status is ErrorStatus => status in ERRORS;

const sharedResponses = Object.fromEntries(
  Object.values(ERRORS).map(({ name, description }) => [
    name,
    {
      description,
      ...(name === 'RateLimited' ? { headers: Object.fromEntries(['Retry-After' as const, ...RATE_LIMIT_HEADERS].map((h) => [h, headerRef(h)])) } : {}),
      ...(name === 'Unauthorized' ? { headers: { 'WWW-Authenticate': headerRef('WWW-Authenticate') } } : {}),
      content: errorContent,
    },
  ]),
);

const PARAMETERS = {
  ProjectId: {
    in: 'header',
    name: 'X-Project-Id',
    required: false,
    description: "Optional: the project the caller means. When it is not the API key's own project, the answer is 403.",
    schema: { type: 'string', format: 'uuid' },
  },
  IdempotencyKey: {
    in: 'header',
    name: 'Idempotency-Key',
    required: false,
    description:
      'Optional: a token of your choosing (1 to 255 visible ASCII characters, such as a UUID), new for each operation. A retry with the same key ' +
      'within 24 hours gets the first success again (with Idempotent-Replayed: true) instead of doing the work twice; the same key with ' +
      'another method, path or body is a 422. Refusals and failures are not kept: a retry runs again.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  },
  IfMatch: {
    in: 'header',
    name: 'If-Match',
    required: false,
    description:
      'Optional: the ETag of the value as you read it ("42", from its GET, PUT or a listing of versions), or *. The write happens only if the value ' +
      'is still at that version (or, for *, exists); otherwise 412 and nothing is written. Without it the write is unconditional.',
    schema: { type: 'string' },
  },
  IfNoneMatchWrite: {
    in: 'header',
    name: 'If-None-Match',
    required: false,
    description:
      'Optional: * to write only if the value does not exist yet, or ETags of versions the write must not replace. Otherwise 412 and ' +
      'nothing is written. A field that is neither (such as 42 without its quotes) is a 422. With If-Match, both must hold.',
    schema: { type: 'string' },
  },
  IfNoneMatch: {
    in: 'header',
    name: 'If-None-Match',
    required: false,
    description: 'ETags of a copy the client holds: 304 with no body while one of them is current.',
    schema: { type: 'string' },
  },
} as const;
export type SharedParameter = keyof typeof PARAMETERS;

const TAGS = [
  { name: 'Keys', description: 'Translation keys: named slots in a group, one value per language.' },
  { name: 'Translations', description: 'Writing and deleting the value of a key in one language.' },
  { name: 'Groups', description: 'Groups exist while at least one live key carries their name.' },
  { name: 'Languages', description: 'Languages registered on the project; values are served only in these.' },
  { name: 'Live translations', description: 'Reads from the database, current at every request.' },
  { name: 'Manifest', description: 'The languages that have values, with their approved counts.' },
  { name: 'Cache', description: 'Rebuilding the prebuilt translation files, and their status.' },
  { name: 'Cached translations', description: 'Reads from the last cache build: fast, with ETags and 304s, eventually consistent.' },
  { name: 'Files', description: 'Whole translation files in and out, in every supported format.' },
  { name: 'Comments', description: 'Conversations about the value of a key in one language: questions, review notes.' },
  { name: 'Glossary', description: "The project's terms and how each is said in its languages: shown to translators beside the source texts that hold them." },
  { name: 'Screenshots', description: 'Images of the product linked to the keys they show, and where: shown to translators beside those keys.' },
  { name: 'Tasks', description: 'Translation work handed to people: keys to translate or review in one language, for assignees, by a due day.' },
  { name: 'Translation memory', description: "Suggestions from the account's approved translations of the same or similar source texts." },
  { name: 'Machine translation', description: 'Bulk translation: translation memory first, then the configured provider.' },
  { name: 'Usage', description: "The account's API calls today and translation units this billing cycle." },
  { name: 'Health', description: 'Service and dependency health (public).' },
  { name: 'Admin', description: 'Accounts, projects and API keys (Bearer admin token): the portal back end.' },
];

/** The document around the operations: createApi serves it with them at GET /openapi.json. */
export const OPENAPI_OPTIONS = {
  documentation: {
    openapi: '3.1.0',
    info: {
      title: 'tms: translation management service',
      version: '1.0.0',
      description:
        'Every call acts on the project of its API key (header X-API-Key), except GET /health and the admin API. ' +
        'Request bodies are JSON unless stated; every error answers {"detail": ...} (schema Error).',
    },
    // The API is at the root of whichever host serves this document (a local server, a stage's
    // API Gateway or CloudFront domain): a relative server, so generated clients resolve paths there.
    servers: [{ url: '/' }],
    tags: TAGS,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The project API key: key_live_... (everything), or a read-only delivery key, delivery_... (the cached reads only).' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'TMS_ADMIN_TOKEN.' },
      },
      responses: sharedResponses,
      headers: HEADERS,
      parameters: PARAMETERS,
    },
  },
  // The service answers invalid input with 422 and the envelope above, never hono-openapi's 400.
  defaultValidationErrorResponse: false,
} satisfies Partial<GenerateSpecOptions>;

// ---------------------------------------------------------------------------------------------
// describe(): one route's operation.

type Auth = 'apiKey' | 'admin' | 'none';

/** A response other than an error envelope: a JSON body, other media types, response headers. */
export type ResponseSpec = {
  description?: string;
  /** A JSON body. */
  schema?: v.GenericSchema;
  /** Bodies of other media types, as OpenAPI schema objects. */
  content?: Record<string, { schema: Record<string, unknown> }>;
  headers?: readonly HeaderName[];
};

/** A request body that is a file, not JSON: any of these media types, up to maxBytes. */
export type FileBody = { mediaTypes: readonly string[]; maxBytes: number; description: string };

const SUCCESS: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content', 304: 'Not modified: the copy the client holds is current' };

const isSchema = (value: v.GenericSchema | ResponseSpec): value is v.GenericSchema => 'kind' in value && value.kind === 'schema';

export function describe(options: {
  /** Stable, unique name of the operation (generated clients name their methods after it). */
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  auth?: Auth;
  /**
   * 'json': a JSON body (validated: 413 over 1 MiB, 415 if not JSON); a raw file; or 'none' for a
   * write that takes no body (noBody() in validate.ts: a body with fields is a 422, other bytes 415).
   * Every write says which: its body limit applies whatever the route reads.
   */
  body?: 'json' | 'none' | FileBody;
  /** False for routes that take no parameters, query or body: nothing to refuse with 422. */
  input?: boolean;
  /** Optional request headers the operation reads (besides X-API-Key and X-Project-Id). */
  headers?: readonly SharedParameter[];
  /** The route runs idempotencyKey(): the Idempotency-Key header is documented. */
  idempotent?: boolean;
  /** Status -> its body: a JSON schema, a richer ResponseSpec, or null (no body; the error envelope for 4xx/5xx). */
  responses: Record<number, v.GenericSchema | ResponseSpec | null>;
}) {
  const auth = options.auth ?? 'apiKey';
  const statuses: Record<number, v.GenericSchema | ResponseSpec | null> = { ...options.responses };
  const addError = (status: ErrorStatus) => {
    if (!(status in statuses)) statuses[status] = null;
  };
  if (auth !== 'none') addError(401);
  if (auth === 'apiKey') {
    addError(403);
    addError(429);
  }
  if (options.body !== undefined) addError(413);
  if (options.body === 'json' || options.body === 'none') addError(415);
  if (options.input !== false) addError(422);
  addError(500);

  const responses: NonNullable<DescribeRouteOptions['responses']> = {};
  for (const status of Object.keys(statuses).map(Number).sort((a, b) => a - b)) {
    const value = statuses[status]!;
    if (value === null && isErrorStatus(status)) {
      responses[status] = { $ref: `#/components/responses/${ERRORS[status].name}` };
      continue;
    }
    const given: ResponseSpec = value === null ? {} : isSchema(value) ? { schema: value } : value;
    // The daily standing comes with every answer to an API key (on the error answers through their shared responses).
    const spec: ResponseSpec = auth === 'apiKey' ? { ...given, headers: [...(given.headers ?? []), ...RATE_LIMIT_HEADERS] } : given;
    const description = spec.description ?? SUCCESS[status] ?? (isErrorStatus(status) ? ERRORS[status].description : String(status));
    const content = {
      ...(spec.schema ? { 'application/json': { schema: resolver(spec.schema) } } : {}),
      ...spec.content,
    };
    responses[status] = {
      description,
      ...(spec.headers?.length ? { headers: Object.fromEntries(spec.headers.map((h) => [h, headerRef(h)])) } : {}),
      ...(Object.keys(content).length ? { content } : {}),
    };
  }

  const headerParams: SharedParameter[] = [...(auth === 'apiKey' ? ['ProjectId' as const] : []), ...(options.headers ?? []), ...(options.idempotent ? ['IdempotencyKey' as const] : [])];
  const parameters = headerParams.map((name) => ({
    $ref: `#/components/parameters/${name}`,
  }));
  const file = typeof options.body === 'object' ? options.body : undefined;
  return passthrough(describeRoute({
    operationId: options.operationId,
    tags: [options.tag],
    summary: options.summary,
    ...(options.description ? { description: options.description } : {}),
    security: auth === 'apiKey' ? [{ apiKey: [] }] : auth === 'admin' ? [{ adminToken: [] }] : [],
    ...(parameters.length ? { parameters } : {}),
    ...(file
      ? {
          requestBody: {
            required: true,
            description: `${file.description} At most ${file.maxBytes / MiB} MiB.`,
            content: Object.fromEntries(file.mediaTypes.map((type) => [type, { schema: fileSchema(type) }])),
          },
        }
      : {}),
    responses,
  }));
}

/**
 * A file body's schema under one media type: the bytes (a binary string), except under a JSON media
 * type, where the file is the JSON document itself. A binary string there would read, to a client
 * generator, as a JSON string to be quoted (openapi-fetch sends JSON.stringify of the body), and a
 * JSON-based file (json, json-nested, i18next, arb) is an object at its top level.
 */
function fileSchema(mediaType: string): { type: 'object' | 'string'; description?: string; format?: string } {
  return /^application\/(?:[\w.+-]+\+)?json$/.test(mediaType)
    ? { type: 'object', description: 'The file itself (json, json-nested, i18next, arb: an object).' }
    : { type: 'string', format: 'binary' };
}

// hono-openapi's describeRoute middleware is `async (_c, next) => { await next(); }`: an extra promise
// and await on every request of every route, for metadata only read when /openapi.json is generated.
// The same metadata on a middleware that hands next()'s promise straight back.
function passthrough(described: MiddlewareHandler): MiddlewareHandler {
  const middleware: MiddlewareHandler = (_c, next) => next();
  return Object.assign(middleware, { [uniqueSymbol]: (described as unknown as Record<symbol, unknown>)[uniqueSymbol] });
}
