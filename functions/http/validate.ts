// Request validation: the valibot schemas that validate a route also describe it in /openapi.json
// (through hono-openapi's validator). Failures become 422 with the spec's [{loc, msg, type}].
import type { Context, MiddlewareHandler, Next } from 'hono';
import { resolver, uniqueSymbol, validator } from 'hono-openapi';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { HTTPException } from 'hono/http-exception';
import { validationError, type ValidationIssue } from '../../core/errors.ts';
import type { AppEnv } from './app-env.ts';

type Target = 'json' | 'param' | 'query';
const LOC: Record<Target, string> = { json: 'body', param: 'path', query: 'query' };

type RawIssue = StandardSchemaV1.Issue & { type?: string; received?: string; expected?: string; kind?: string };

const unknownField = (loc: (string | number)[]): ValidationIssue => ({ loc, msg: `Unknown field '${String(loc.at(-1))}'`, type: 'extra_forbidden' });

function toIssues(target: Target, issues: readonly RawIssue[]): ValidationIssue[] {
  return issues.map((issue) => {
    const path = (issue.path ?? []).map((p) => (typeof p === 'object' ? (p.key as string | number) : (p as string | number)));
    const loc = [LOC[target], ...path];
    if (issue.kind === 'schema' && issue.received === 'undefined') return { loc, msg: 'Field required', type: 'missing' };
    if (issue.type === 'strict_object' && issue.expected === 'never') return unknownField(loc);
    return { loc, msg: issue.message, type: issue.type ?? 'invalid' };
  });
}

function hook(target: Target) {
  return (result: { success: boolean; error?: readonly RawIssue[] }) => {
    if (!result.success) throw validationError(toIssues(target, result.error ?? []));
  };
}

export const validBody = <S extends StandardSchemaV1>(schema: S) => validator('json', schema, hook('json'));

/**
 * validBody for a write whose JSON body may be left out (after optionalJsonBody(), which reads none
 * as `{}`). hono-openapi documents every validated body as required, so a generated client would
 * insist on one; this one's OpenAPI metadata is the same body, `required: false`.
 */
export const validOptionalBody = <S extends StandardSchemaV1>(schema: S) => {
  const middleware = validBody(schema);
  const requestBody = { required: false, content: { 'application/json': { schema: resolver(schema) } } };
  return Object.assign(middleware, { [uniqueSymbol]: { spec: { requestBody } } });
};
export const validParams = <S extends StandardSchemaV1>(schema: S) => syncValidator('param', schema, validator('param', schema, hook('param')));
export const validQuery = <S extends StandardSchemaV1>(schema: S) => syncValidator('query', schema, validator('query', schema, hook('query')));

// Path and query validation run on every request of the hot routes (a cached key read has three
// params). hono's validator awaits twice and looks at Content-Type even for params; valibot answers
// synchronously, so this one validates and hands next()'s promise straight back, with the same
// result type for c.req.valid() and the same OpenAPI metadata (taken from hono-openapi's validator).
function syncValidator<M extends MiddlewareHandler>(target: 'param' | 'query', schema: StandardSchemaV1, described: M): M {
  const read = target === 'param' ? (c: Context) => c.req.param() : queryObject;
  const middleware: MiddlewareHandler = (c, next) => {
    const result = schema['~standard'].validate(read(c));
    if (result instanceof Promise) return result.then((settled) => accept(c, target, settled, next));
    return accept(c, target, result, next);
  };
  return Object.assign(middleware, { [uniqueSymbol]: (described as unknown as Record<symbol, unknown>)[uniqueSymbol] }) as unknown as M;
}

function accept(c: Context, target: 'param' | 'query', result: StandardSchemaV1.Result<unknown>, next: Next) {
  if (result.issues) throw validationError(toIssues(target, result.issues));
  c.req.addValidatedData(target, result.value as object);
  return next();
}

// As hono's validator builds it: a parameter given once is a string, given more often an array.
function queryObject(c: Context): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(c.req.queries())) out[name] = values.length === 1 ? values[0]! : values;
  return out;
}

const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;
const mediaTypeOf = (contentType: string | undefined) => (contentType ?? '').split(';')[0]!.trim();
const notJson = () => validationError([{ loc: ['body'], msg: 'Request body is not valid JSON', type: 'json_invalid' }]);
const notUtf8 = () => validationError([{ loc: ['body'], msg: 'Request body is not valid UTF-8', type: 'unicode_invalid' }]);
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;
// fatal: a byte sequence that is not UTF-8 is an error, where the default decoder would quietly
// store U+FFFD in its place (a key named "\ufffd\ufffd" from the bytes FF FE).
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as text, refused unless it is UTF-8: JSON exchanged between systems must be (RFC 8259
 * 8.1), so a declared charset other than UTF-8 is a 415 and bytes that do not decode a 422. The text
 * then serves every later reader of this request (the validator's c.req.json() included).
 */
async function utf8Body(c: Context<AppEnv>): Promise<string> {
  const bytes = await c.req.arrayBuffer();
  // No body at all (a DELETE, a POST that takes none) has no charset to judge.
  if (bytes.byteLength === 0) return cacheText(c, '');
  const charset = CHARSET.exec(c.req.header('content-type') ?? '')?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    throw new HTTPException(415, { message: `Request bodies are UTF-8 JSON: charset=${charset.slice(0, 40)} is not supported` });
  }
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch (error) {
    if (error instanceof TypeError) throw notUtf8();
    throw error;
  }
  return cacheText(c, text);
}

function cacheText(c: Context<AppEnv>, text: string): string {
  (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
  return text;
}
const notAnObject = () => validationError([{ loc: ['body'], msg: 'Request body must be a JSON object', type: 'object_type' }]);
const isObject = (body: unknown): body is Record<string, unknown> => body !== null && typeof body === 'object' && !Array.isArray(body);

/**
 * Runs before validBody: refuses a body that is not JSON (415) or not parseable (422), so that the
 * validator never silently treats a wrong content type as an empty object.
 */
export const requireJsonBody = (): MiddlewareHandler<AppEnv> =>
  async function requireJsonBody(c, next) {
    if (!JSON_MEDIA.test(mediaTypeOf(c.req.header('content-type')))) {
      // 415 is about HTTP itself, so it stays out of core's error codes.
      throw new HTTPException(415, { message: 'Content-Type must be application/json' });
    }
    const text = await utf8Body(c);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw notJson();
    }
    if (!isObject(body)) throw notAnObject();
    await next();
  };

/**
 * For writes that take no body (the DELETEs, POST /v1/cache/rebuild, the admin's new API key and
 * restores): a body that asks for something is refused, as everywhere else (an unknown field is a
 * 422 naming it), instead of being silently ignored. No body, a blank one or `{}` is fine: HTTP
 * libraries and generated clients often send one of those with a POST. Any other bytes that are not
 * JSON are a 415, as on the routes that take JSON (docs/decisions.md, "Bodies on writes that take
 * none, large uploads, retries and Idempotency-Key").
 */
export const noBody = (): MiddlewareHandler<AppEnv> =>
  async function noBody(c, next) {
    const text = await utf8Body(c);
    if (text.trim() === '') return next();
    if (!JSON_MEDIA.test(mediaTypeOf(c.req.header('content-type')))) {
      throw new HTTPException(415, { message: 'This operation takes no request body: send none, or {}' });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw notJson();
    }
    if (!isObject(body)) throw notAnObject();
    const fields = Object.keys(body);
    if (fields.length > 0) throw validationError(fields.map((field) => unknownField(['body', field])));
    await next();
  };

/**
 * Runs before validBody on a write whose JSON body is optional (the admin's new API key: a name, a
 * kind...): no body or a blank one is read as `{}`, as noBody() accepts them; any other body must be
 * a JSON object (415 / 422 as with requireJsonBody).
 */
export const optionalJsonBody = (): MiddlewareHandler<AppEnv> =>
  async function optionalJsonBody(c, next) {
    const text = await utf8Body(c);
    if (text.trim() === '') {
      // The validator reads JSON only under a JSON content type, through this cache (Hono keeps
      // promises there, whatever its type says).
      (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve('{}');
      return next();
    }
    if (!JSON_MEDIA.test(mediaTypeOf(c.req.header('content-type')))) {
      throw new HTTPException(415, { message: 'Content-Type must be application/json' });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw notJson();
    }
    if (!isObject(body)) throw notAnObject();
    await next();
  };
