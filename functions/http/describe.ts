// OpenAPI descriptions from the same valibot schemas the routes validate with and core returns.
import { describeRoute, resolver, type DescribeRouteOptions } from 'hono-openapi';
import * as v from 'valibot';

const ErrorEnvelope = v.object({ detail: v.string() });
const ValidationEnvelope = v.object({
  detail: v.array(v.object({ loc: v.array(v.union([v.string(), v.number()])), msg: v.string(), type: v.string() })),
});

const REASONS: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content', 304: 'Not modified',
  401: 'Invalid API key', 402: 'Plan limit reached', 403: 'Key belongs to another project', 404: 'Not found',
  409: 'Conflict', 413: 'Body over 1 MiB', 415: 'Body is not JSON', 422: 'Validation error',
  429: 'Daily quota exhausted', 500: 'Server error', 503: 'Not ready or degraded',
};

type Auth = 'apiKey' | 'admin' | 'none';

export function describe(options: {
  tag: string;
  summary: string;
  auth?: Auth;
  /** Status -> response body schema; null for an error envelope or no body. */
  responses: Record<number, v.GenericSchema | null>;
}) {
  const auth = options.auth ?? 'apiKey';
  const responses: NonNullable<DescribeRouteOptions['responses']> = {};
  const statuses = {
    ...options.responses,
    ...(auth === 'none' ? {} : { 401: null }),
    ...(auth === 'apiKey' ? { 403: null, 429: null } : {}),
    422: null,
  } as Record<number, v.GenericSchema | null>;
  for (const [status, schema] of Object.entries(statuses)) {
    const code = Number(status);
    const body = schema ?? (code === 422 ? ValidationEnvelope : code >= 400 ? ErrorEnvelope : null);
    responses[status] = {
      description: REASONS[code] ?? String(code),
      ...(body ? { content: { 'application/json': { schema: resolver(body) } } } : {}),
    };
  }
  return describeRoute({
    tags: [options.tag],
    summary: options.summary,
    security: auth === 'apiKey' ? [{ apiKey: [] }] : auth === 'admin' ? [{ adminToken: [] }] : [],
    responses,
  });
}
