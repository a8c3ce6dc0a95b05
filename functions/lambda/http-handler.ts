// The Lambda entry for one HTTP route group: the group's Hono app (the same createApi the local
// server uses) behind hono/aws-lambda's adapter, which speaks API Gateway v2 and function URL events.
// Config and Deps are made on the first invocation of an instance and reused by every later one.
import { handle, type APIGatewayProxyResult, type LambdaContext, type LambdaEvent } from 'hono/aws-lambda';
import type { Deps } from '../../core/deps.ts';
import { createApi } from '../http/create-api.ts';
import { statusOf } from '../http/errors.ts';
import type { RouteGroup } from '../http/route-group.ts';
import { createLambdaDeps, type LambdaPorts } from './lambda-deps.ts';
import { lambdaConfig } from './resource-env.ts';
import { upstashCounters } from './upstash-counters.ts';

export type HttpHandler = ((event: LambdaEvent, context?: LambdaContext) => Promise<APIGatewayProxyResult>) & {
  /** The instance's Deps, made on first use (tests inspect them). */
  deps(): Deps;
};

export type HttpHandlerOptions = {
  /** A prebuilt OpenAPI document to serve at GET /openapi.json (the health function serves the whole API's). */
  openapi?: object;
};

export function httpHandler(group: RouteGroup, ports: Omit<LambdaPorts, 'counters'>, options: HttpHandlerOptions = {}): HttpHandler {
  let instance: { deps: Deps; handler: ReturnType<typeof handle> } | undefined;
  // Not at import time: a configuration error then fails the invocation with the message in the
  // function's log, and the next invocation tries again instead of the instance being poisoned.
  const init = () => {
    if (instance) return instance;
    // Every HTTP function counts the daily quota, and /health pings the counter store.
    const deps = createLambdaDeps(lambdaConfig(), { ...ports, counters: upstashCounters });
    const app = createApi(deps, [group]);
    const document = options.openapi;
    if (document) app.get('/openapi.json', (c) => c.json(document));
    instance = { deps, handler: handle(app) };
    return instance;
  };
  const handler = async (event: LambdaEvent, context?: LambdaContext) =>
    withinResponseLimit(await init().handler(withoutGetBody(withSafePath(event)), context));
  return Object.assign(handler, { deps: () => init().deps });
}

/**
 * What Lambda returns from a synchronous invocation at most: the response as serialized JSON
 * ("Response payload size exceeded maximum allowed payload size (6291556 bytes)"). A larger one is
 * an invocation error, which API Gateway answers with a bare 500 and no word of why.
 */
export const LAMBDA_RESPONSE_LIMIT = 6_291_556;

/**
 * An answer too large for Lambda (a whole language of long values, live or exported, or a cached
 * file a client asked for uncompressed) becomes the envelope's 413 saying how to ask for less,
 * keeping the request id and CORS headers. The same request self-hosted gets its 200.
 */
export function withinResponseLimit(result: APIGatewayProxyResult): APIGatewayProxyResult {
  // Serializing costs a copy: a body that could not pass the limit even with every character
  // escaped (6 bytes at most, `\u001f`) is not measured.
  if (typeof result.body !== 'string' || result.body.length * 6 < LAMBDA_RESPONSE_LIMIT) return result;
  const bytes = Buffer.byteLength(JSON.stringify(result));
  if (bytes <= LAMBDA_RESPONSE_LIMIT) return result;
  const headers: Record<string, string> = {};
  const given = 'headers' in result ? result.headers : {};
  for (const [name, value] of Object.entries(given ?? {})) {
    if (/^(x-request-id|access-control-|vary$|x-ratelimit-)/i.test(name)) headers[name] = String(value);
  }
  headers['content-type'] = 'application/json';
  headers['cache-control'] = 'no-store';
  const megabytes = (n: number) => (n / 1_000_000).toFixed(1);
  const detail =
    `This answer is ${megabytes(bytes)} MB, more than AWS Lambda can return (${megabytes(LAMBDA_RESPONSE_LIMIT)} MB): ` +
    'ask for less (one group: /v1/translations/{language}/{group}, or ?group= on an export), or read the cached files with Accept-Encoding: br or gzip';
  return { statusCode: statusOf('too_large'), headers, body: JSON.stringify({ detail }), isBase64Encoded: false };
}

/**
 * API Gateway HTTP APIs hand the function `rawPath` percent-DECODED (function URLs and REST APIs
 * keep it encoded): a request for `/v1/translations/de/faq/what%3F%20%231` arrives as
 * `/v1/translations/de/faq/what? #1`, and hono/aws-lambda would put that into a URL where `?` starts
 * the query and `#` a fragment. Escaping only what can never appear literally in an encoded path
 * (`?`, `#`, whitespace and controls, non-ASCII, a `%` that starts no escape) makes either form
 * safe without knowing which service sent the event. Left ambiguous, as it is in the decoded path
 * itself: an encoded slash (%2F), and a name that literally contains `%` and two hex digits.
 */
export function safeRawPath(rawPath: string): string {
  return rawPath.replace(/[?#\s\p{Cc}]|[^\x00-\x7f]|%(?![0-9A-Fa-f]{2})/gu, (char) => {
    try {
      return encodeURIComponent(char);
    } catch {
      return '%EF%BF%BD'; // a lone surrogate: U+FFFD, as a UTF-8 decoder would make of it
    }
  });
}

function withSafePath<E extends LambdaEvent>(event: E): E {
  if (!('rawPath' in event) || typeof event.rawPath !== 'string') return event;
  const rawPath = safeRawPath(event.rawPath);
  return rawPath === event.rawPath ? event : { ...event, rawPath };
}

/**
 * API Gateway and function URLs pass a body on any method, and a client may send one with a GET or
 * HEAD (curl -X GET -d ...). The Fetch API refuses to build such a Request, so hono/aws-lambda would
 * answer a bare text/plain 400 "Invalid request" before any route ran. Node's server ignores the
 * body of those methods, and so does this: the same request gets the same answer on both.
 */
function withoutGetBody<E extends LambdaEvent>(event: E): E {
  const method = 'requestContext' in event && event.requestContext && 'http' in event.requestContext
    ? event.requestContext.http.method
    : 'httpMethod' in event ? event.httpMethod : undefined;
  if ((method !== 'GET' && method !== 'HEAD') || !('body' in event) || !event.body) return event;
  return { ...event, body: null, isBase64Encoded: false };
}
