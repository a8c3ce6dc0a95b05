// Request validation: the valibot schemas that validate a route also describe it in /openapi.json
// (through hono-openapi's validator). Failures become 422 with the spec's [{loc, msg, type}].
import type { MiddlewareHandler } from 'hono';
import { validator } from 'hono-openapi';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { HTTPException } from 'hono/http-exception';
import { validationError, type ValidationIssue } from '../../core/errors.ts';
import type { AppEnv } from './app-env.ts';

type Target = 'json' | 'param' | 'query';
const LOC: Record<Target, string> = { json: 'body', param: 'path', query: 'query' };

type RawIssue = StandardSchemaV1.Issue & { type?: string; received?: string; expected?: string; kind?: string };

function toIssues(target: Target, issues: readonly RawIssue[]): ValidationIssue[] {
  return issues.map((issue) => {
    const path = (issue.path ?? []).map((p) => (typeof p === 'object' ? (p.key as string | number) : (p as string | number)));
    const loc = [LOC[target], ...path];
    if (issue.kind === 'schema' && issue.received === 'undefined') return { loc, msg: 'Field required', type: 'missing' };
    if (issue.type === 'strict_object' && issue.expected === 'never') {
      return { loc, msg: `Unknown field '${String(path.at(-1))}'`, type: 'extra_forbidden' };
    }
    return { loc, msg: issue.message, type: issue.type ?? 'invalid' };
  });
}

function hook(target: Target) {
  return (result: { success: boolean; error?: readonly RawIssue[] }) => {
    if (!result.success) throw validationError(toIssues(target, result.error ?? []));
  };
}

export const validBody = <S extends StandardSchemaV1>(schema: S) => validator('json', schema, hook('json'));
export const validParams = <S extends StandardSchemaV1>(schema: S) => validator('param', schema, hook('param'));
export const validQuery = <S extends StandardSchemaV1>(schema: S) => validator('query', schema, hook('query'));

const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;

/**
 * Runs before validBody: refuses a body that is not JSON (415) or not parseable (422), so that the
 * validator never silently treats a wrong content type as an empty object.
 */
export const requireJsonBody = (): MiddlewareHandler<AppEnv> =>
  async function requireJsonBody(c, next) {
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
    if (!JSON_MEDIA.test(mediaType)) {
      // 415 is about HTTP itself, so it stays out of core's error codes.
      throw new HTTPException(415, { message: 'Content-Type must be application/json' });
    }
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw validationError([{ loc: ['body'], msg: 'Request body is not valid JSON', type: 'json_invalid' }]);
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw validationError([{ loc: ['body'], msg: 'Request body must be a JSON object', type: 'object_type' }]);
    }
    await next();
  };
