// Lambda events as AWS delivers them, and their results decoded, for invoking the Lambda entries
// (functions/<group>/handler.ts) in tests. Shapes follow the payload format 2.0 of API Gateway HTTP
// APIs and of function URLs (the same format), and Lambda's SQS event source.
import { createHash, randomUUID } from 'node:crypto';
import { vi } from 'vitest';
import { HTTP_FUNCTIONS } from '../../functions/catalogue.ts';

/** The route keys stacks/api.ts gives each function of the catalogue: `ANY <prefix>` and `ANY <prefix>/{proxy+}`. */
const ROUTE_PREFIXES = HTTP_FUNCTIONS.map((entry) => entry.prefix);
const EXTRA_ROUTES = HTTP_FUNCTIONS.flatMap((entry) => entry.extraRoutes ?? []);

export type HttpRequest = {
  method: string;
  /** Path with an optional query string: '/v1/keys?group=home'. */
  path: string;
  headers?: Record<string, string>;
  /** A JSON value (sent as application/json), a string, or bytes. */
  body?: unknown;
  /** Deliver the body base64-encoded, as API Gateway and function URLs do for binary payloads. */
  base64?: boolean;
  cookies?: string[];
};

export type HttpEvent = {
  version: '2.0';
  routeKey: string;
  rawPath: string;
  rawQueryString: string;
  cookies?: string[];
  headers: Record<string, string>;
  queryStringParameters?: Record<string, string>;
  pathParameters?: Record<string, string>;
  requestContext: {
    accountId: string;
    apiId: string;
    authorizer?: unknown;
    domainName: string;
    domainPrefix: string;
    http: { method: string; path: string; protocol: string; sourceIp: string; userAgent: string };
    requestId: string;
    routeKey: string;
    stage: string;
    time: string;
    timeEpoch: number;
  };
  body?: string;
  isBase64Encoded: boolean;
};

function bodyOf(request: HttpRequest): { bytes: Buffer | undefined; contentType: string | undefined } {
  const { body } = request;
  if (body === undefined) return { bytes: undefined, contentType: undefined };
  if (typeof body === 'string') return { bytes: Buffer.from(body, 'utf8'), contentType: undefined };
  if (body instanceof Uint8Array) return { bytes: Buffer.from(body), contentType: undefined };
  return { bytes: Buffer.from(JSON.stringify(body), 'utf8'), contentType: 'application/json' };
}

function routeOf(path: string): { routeKey: string; pathParameters?: Record<string, string> } {
  if (EXTRA_ROUTES.includes(path)) return { routeKey: `ANY ${path}` };
  for (const prefix of ROUTE_PREFIXES) {
    if (path === prefix) return { routeKey: `ANY ${prefix}` };
    if (path.startsWith(prefix + '/')) {
      return { routeKey: `ANY ${prefix}/{proxy+}`, pathParameters: { proxy: path.slice(prefix.length + 1) } };
    }
  }
  return { routeKey: '$default' };
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function clf(date: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

function baseEvent(request: HttpRequest, kind: 'api-gateway' | 'function-url'): HttpEvent {
  const [path = '/', rawQueryString = ''] = request.path.split(/\?(.*)/s);
  // HTTP APIs deliver the path percent-decoded (seen in live events: hono#2156, fastify/aws-lambda-fastify#169);
  // function URLs deliver it as the client sent it.
  const rawPath = kind === 'api-gateway' ? decodePath(path) : path;
  const { bytes, contentType } = bodyOf(request);
  const apiId = kind === 'api-gateway' ? 'a1b2c3d4e5' : 'x7k2mq3vz4n5b6c7d8e9f0g1h2';
  const domainName = kind === 'api-gateway' ? `${apiId}.execute-api.us-east-1.amazonaws.com` : `${apiId}.lambda-url.us-east-1.on.aws`;
  const userAgent = 'tms-tests/1.0';
  // API Gateway lower-cases header names and joins repeated headers with commas.
  const headers: Record<string, string> = {
    accept: '*/*',
    host: domainName,
    'user-agent': userAgent,
    'x-amzn-trace-id': `Root=1-${Date.now().toString(16)}-${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    'x-forwarded-for': '203.0.113.7',
    'x-forwarded-port': '443',
    'x-forwarded-proto': 'https',
    ...(contentType ? { 'content-type': contentType } : {}),
    ...(bytes ? { 'content-length': String(bytes.length) } : {}),
    ...Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
  };
  const query = new URLSearchParams(rawQueryString);
  const queryStringParameters: Record<string, string> = {};
  for (const key of new Set(query.keys())) queryStringParameters[key] = query.getAll(key).join(',');
  const now = new Date();
  const route = kind === 'api-gateway' ? routeOf(rawPath) : { routeKey: '$default' };
  return {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath,
    rawQueryString,
    ...(request.cookies ? { cookies: request.cookies } : {}),
    headers,
    ...(rawQueryString ? { queryStringParameters } : {}),
    ...('pathParameters' in route && route.pathParameters ? { pathParameters: route.pathParameters } : {}),
    requestContext: {
      accountId: kind === 'api-gateway' ? '123456789012' : 'anonymous',
      apiId,
      domainName,
      domainPrefix: apiId,
      http: { method: request.method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent },
      requestId: kind === 'api-gateway' ? `${randomUUID().slice(0, 14)}=` : randomUUID(),
      routeKey: route.routeKey,
      stage: '$default',
      time: clf(now),
      timeEpoch: now.getTime(),
    },
    ...(bytes ? { body: request.base64 ? bytes.toString('base64') : bytes.toString('utf8') } : {}),
    isBase64Encoded: Boolean(bytes && request.base64),
  };
}

/** An API Gateway HTTP API (payload 2.0) event, with the route key stacks/api.ts would have matched. */
export const apiGatewayEvent = (request: HttpRequest) => baseEvent(request, 'api-gateway');
/** A Lambda function URL event: the same payload format, routeKey $default, the URL's own domain. */
export const functionUrlEvent = (request: HttpRequest) => baseEvent(request, 'function-url');

/** What a handler answers, in the shape hono/aws-lambda produces for payload 2.0. */
export type LambdaHttpResult = {
  statusCode: number;
  headers?: Record<string, string>;
  body: string;
  isBase64Encoded: boolean;
  cookies?: string[];
};

export type Answer = { status: number; headers: Record<string, string>; body: Buffer; json(): unknown };

/** The HTTP answer API Gateway makes of a handler result: base64 bodies decoded to their bytes. */
export function answerOf(result: LambdaHttpResult): Answer {
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body, 'utf8');
  const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return { status: result.statusCode, headers, body, json: () => JSON.parse(body.toString('utf8')) };
}

/** The same view of a fetch Response (the local app's answer). */
export async function answerOfResponse(res: Response): Promise<Answer> {
  const body = Buffer.from(await res.arrayBuffer());
  const headers: Record<string, string> = {};
  res.headers.forEach((value, key) => (headers[key] = value));
  return { status: res.status, headers, body, json: () => JSON.parse(body.toString('utf8')) };
}

/** The request as RequestInit for app.request(), for sending the same request to the local app. */
export function requestInit(request: HttpRequest): RequestInit {
  const { bytes, contentType } = bodyOf(request);
  return {
    method: request.method,
    headers: { ...(contentType ? { 'content-type': contentType } : {}), ...request.headers },
    ...(bytes ? { body: bytes } : {}),
  };
}

export type SqsEventRecord = {
  messageId: string;
  receiptHandle: string;
  body: string;
  attributes: Record<string, string>;
  messageAttributes: Record<string, never>;
  md5OfBody: string;
  eventSource: 'aws:sqs';
  eventSourceARN: string;
  awsRegion: string;
};

/** A received SQS message as Lambda's event source mapping hands it to the function. */
export function sqsRecord(message: {
  messageId: string;
  receiptHandle: string;
  body: string;
  attributes?: Record<string, string | undefined>;
  queueArn?: string;
}): SqsEventRecord {
  const attributes: Record<string, string> = {
    ApproximateReceiveCount: '1',
    SentTimestamp: String(Date.now()),
    SenderId: 'AROAEXAMPLE:tms-keys',
    ApproximateFirstReceiveTimestamp: String(Date.now()),
  };
  for (const [name, value] of Object.entries(message.attributes ?? {})) if (value !== undefined) attributes[name] = value;
  return {
    messageId: message.messageId,
    receiptHandle: message.receiptHandle,
    body: message.body,
    attributes,
    messageAttributes: {},
    md5OfBody: createHash('md5').update(message.body, 'utf8').digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: message.queueArn ?? 'arn:aws:sqs:us-east-1:000000000000:rebuild.fifo',
    awsRegion: 'us-east-1',
  };
}

/**
 * SST_RESOURCE_<Name> variables as SST sets them for linked resources. They must be in process.env
 * before `Resource` (sst/resource) is first read in the process: it reads the environment once.
 */
export function linkEnv(links: Record<string, Record<string, string>>): Record<string, string> {
  return {
    SST_RESOURCE_App: JSON.stringify({ name: 'tms', stage: 'test' }),
    ...Object.fromEntries(Object.entries(links).map(([name, value]) => [`SST_RESOURCE_${name}`, JSON.stringify(value)])),
  };
}

/**
 * Replaces the links `Resource` holds in this process, for tests that try several configurations in
 * one file (the environment is read once). SST keeps them in one global object.
 */
export function replaceLinks(links: Record<string, Record<string, string>>): void {
  const state = globalThis as { __SST_RESOURCE_RAW__?: Record<string, unknown> };
  const raw = (state.__SST_RESOURCE_RAW__ ??= {});
  for (const key of Object.keys(raw)) delete raw[key];
  Object.assign(raw, { App: { name: 'tms', stage: 'test' }, ...links });
}

export type LoggedLine = { level: string; msg: string; [field: string]: unknown };

/**
 * A Lambda entry logs JSON lines to stdout (what CloudWatch keeps). Captures them for the rest of
 * the test file, so that tests can assert on them and the run's output stays readable; any other
 * output passes through.
 */
export function captureJsonLogs(): LoggedLine[] {
  const lines: LoggedLine[] = [];
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: never[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (!text.startsWith('{"time":')) return write(chunk, ...rest);
    for (const line of text.trim().split('\n')) lines.push(JSON.parse(line) as LoggedLine);
    return true;
  }) as typeof process.stdout.write);
  return lines;
}
