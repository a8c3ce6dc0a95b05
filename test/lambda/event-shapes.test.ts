// The HTTP Lambda entries fed the parts of API Gateway's payload 2.0 that a plain JSON request never
// exercises: HEAD requests, query strings with `+` and `%20`, headers that API Gateway joined with
// commas, base64 request bodies (forms), the `cookies` array in and out (the portal's session), and
// binary answers (compressed cached files, exports whose Content-Type is not text) base64-encoded.
// Each answer is compared with the local app's answer to the same request where that makes sense.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LambdaEvent } from 'hono/aws-lambda';
import type { HttpHandler } from '../../functions/lambda/http-handler.ts';
import type { RebuildHandler } from '../../functions/lambda/rebuild-handler.ts';
import { ADMIN_TOKEN, startTestApp } from '../support/test-app.ts';
import { startEmulatedAws, DISTRIBUTION_ID, type EmulatedAws } from '../support/emulated-aws.ts';
import { startSharedDatabase, type SharedDatabase } from '../support/shared-database.ts';
import {
  answerOf,
  answerOfResponse,
  apiGatewayEvent,
  captureJsonLogs,
  linkEnv,
  requestInit,
  sqsRecord,
  type Answer,
  type HttpRequest,
  type LambdaHttpResult,
} from '../support/lambda-events.ts';
import { HTTP_FUNCTIONS, catalogueEntry, entryFileOf, type HttpFunctionName } from '../../functions/catalogue.ts';
import { ReceiveMessageCommand, DeleteMessageCommand } from '@aws-sdk/client-sqs';

let aws: EmulatedAws;
let db: SharedDatabase;
let local: Awaited<ReturnType<typeof startTestApp>>;
const handlers = {} as Record<HttpFunctionName, HttpHandler>;
let builder: RebuildHandler;
captureJsonLogs();

beforeAll(async () => {
  [aws, db] = await Promise.all([startEmulatedAws(), startSharedDatabase()]);
  local = await startTestApp({ env: aws.localEnv(db) });
  Object.assign(process.env, aws.endpoints, { LOG_REQUESTS: 'false' });
  Object.assign(
    process.env,
    linkEnv({
      DatabaseUrl: { value: db.url },
      AdminToken: { value: ADMIN_TOKEN },
      TranslationsBucket: { name: aws.s3.bucket },
      RebuildQueue: { url: aws.queueUrl },
      RebuildDeadLetterQueue: { url: aws.deadLetterUrl },
      EdgeCache: { distributionId: DISTRIBUTION_ID },
    }),
  );
  for (const entry of HTTP_FUNCTIONS) {
    handlers[entry.name as HttpFunctionName] = ((await import(`../../${entryFileOf(entry)}`)) as { handler: HttpHandler }).handler;
  }
  builder = ((await import(`../../${entryFileOf(catalogueEntry('builder'))}`)) as { handler: RebuildHandler }).handler;
}, 60_000);

afterAll(async () => {
  for (const handler of [...Object.values(handlers), builder]) await handler?.deps().sql.end({ timeout: 1 });
  await local?.close();
  await Promise.all([db?.close(), aws?.close()]);
});

async function raw(group: HttpFunctionName, request: HttpRequest, edit: (event: ReturnType<typeof apiGatewayEvent>) => void = () => {}) {
  const event = apiGatewayEvent(request);
  edit(event);
  return (await handlers[group](event as unknown as LambdaEvent)) as LambdaHttpResult;
}
const invoke = async (group: HttpFunctionName, request: HttpRequest) => answerOf(await raw(group, request));
const viaLocal = async (request: HttpRequest): Promise<Answer> => answerOfResponse(await local.app.request(request.path, requestInit(request)));

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
let key = '';
const keyIds: Record<string, string> = {};

describe('a project to read', () => {
  it('is created through the Lambdas', async () => {
    const account = await invoke('admin', { method: 'POST', path: '/admin/v1/accounts', headers: admin, body: { name: 'Shapes', plan: 'team' } });
    const project = await invoke('admin', { method: 'POST', path: `/admin/v1/accounts/${(account.json() as { id: string }).id}/projects`, headers: admin, body: { name: 'p' } });
    key = (project.json() as { api_key: { key: string } }).api_key.key;
    expect((await invoke('languages', { method: 'POST', path: '/v1/languages', headers: { 'x-api-key': key }, body: { code: 'de' } })).status).toBe(201);
    for (const [name, group] of [['main menu.open file', 'main menu'], ['home.a+b', 'home']] as const) {
      const created = await invoke('keys', { method: 'POST', path: '/v1/keys', headers: { 'x-api-key': key }, body: { key: name, group_name: group } });
      expect(created.status).toBe(201);
      keyIds[name] = (created.json() as { id: string }).id;
      const put = await invoke('keys', { method: 'PUT', path: `/v1/keys/${keyIds[name]}/translations/de`, headers: { 'x-api-key': key }, body: { value: `Wert ${name}`, status: 'approved' } });
      expect(put.status).toBe(200);
    }
  });
});

describe('query strings as the client sent them', () => {
  it('`+` and `%20` are both a space in a query value; `%2B` is a plus', async () => {
    const headers = { 'x-api-key': key };
    for (const q of ['group=main+menu', 'group=main%20menu', 'search=open+file', 'search=open%20file']) {
      const lambda = await invoke('keys', { method: 'GET', path: `/v1/keys?${q}`, headers });
      expect(lambda.status, q).toBe(200);
      expect((lambda.json() as { keys: { key: string }[] }).keys.map((k) => k.key), q).toEqual(['main menu.open file']);
    }
    const plus = await invoke('keys', { method: 'GET', path: '/v1/keys?search=a%2Bb', headers });
    expect((plus.json() as { keys: { key: string }[] }).keys.map((k) => k.key)).toEqual(['home.a+b']);
    const live = await invoke('translations', { method: 'GET', path: '/v1/translations/de/main%20menu?status=all', headers });
    expect(live.status).toBe(200);
  });
});

describe('headers API Gateway joined with commas', () => {
  it('a list of ETags in If-None-Match gets a 304 when one matches; Accept-Encoding lists pick br', async () => {
    const headers = { 'x-api-key': key };
    const first = await invoke('translations', { method: 'GET', path: '/v1/translations/de', headers });
    const etag = first.headers['etag']!;
    const again = await invoke('translations', { method: 'GET', path: '/v1/translations/de', headers: { ...headers, 'if-none-match': `"nope", ${etag}` } });
    expect(again.status).toBe(304);
  });
});

describe('HEAD', () => {
  it('answers with the GET headers and no body, as the local server does', async () => {
    const headers = { 'x-api-key': key };
    for (const [group, path] of [['translations', '/v1/translations/de'], ['health', '/health'], ['export', '/v1/export/de?format=po']] as const) {
      const lambda = await invoke(group, { method: 'HEAD', path, headers });
      const expected = await viaLocal({ method: 'HEAD', path, headers });
      expect(lambda.status, path).toBe(expected.status);
      expect(lambda.body.length, path).toBe(0);
      expect(lambda.headers['content-type'], path).toBe(expected.headers['content-type']);
    }
  });
});

describe('binary answers', () => {
  it('exports: every format decodes to the local bytes', async () => {
    for (const format of ['json', 'po', 'yaml', 'csv', 'android', 'ios-strings', 'xliff']) {
      const path = `/v1/export/de?format=${format}&source=de`;
      const result = await raw('export', { method: 'GET', path, headers: { 'x-api-key': key } });
      const lambda = answerOf(result);
      const expected = await viaLocal({ method: 'GET', path, headers: { 'x-api-key': key } });
      expect(lambda.status, format).toBe(expected.status);
      expect(lambda.body.equals(expected.body), format).toBe(true);
    }
  });

  it('cached br and gzip files are base64-encoded and decode to the JSON', async () => {
    expect((await invoke('cacheBuilds', { method: 'POST', path: '/v1/cache/rebuild', headers: { 'x-api-key': key } })).status).toBe(202);
    const out = await aws.client.send(new ReceiveMessageCommand({ QueueUrl: aws.queueUrl, MaxNumberOfMessages: 10, MessageSystemAttributeNames: ['All'] }));
    const records = (out.Messages ?? []).map((m) => sqsRecord({ messageId: m.MessageId!, receiptHandle: m.ReceiptHandle!, body: m.Body!, attributes: m.Attributes }));
    expect(await builder({ Records: records })).toEqual({ batchItemFailures: [] });
    for (const r of records) await aws.client.send(new DeleteMessageCommand({ QueueUrl: aws.queueUrl, ReceiptHandle: r.receiptHandle }));
    for (const [encoding, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
      const result = await raw('cached', { method: 'GET', path: '/v1/cached/translations/de', headers: { 'x-api-key': key, 'accept-encoding': `${encoding}` } });
      expect(result.isBase64Encoded).toBe(true);
      expect(result.headers?.['content-encoding']).toBe(encoding);
      const body = JSON.parse(decode(Buffer.from(result.body, 'base64')).toString('utf8')) as { count: number };
      expect(body.count).toBe(2);
      const list = await raw('cached', { method: 'GET', path: '/v1/cached/translations/de', headers: { 'x-api-key': key, 'accept-encoding': `identity, ${encoding}`, 'if-none-match': `"nope", W/${result.headers!['etag']}` } });
      expect(list.statusCode).toBe(304);
      const head = await raw('cached', { method: 'HEAD', path: '/v1/cached/translations/de', headers: { 'x-api-key': key, 'accept-encoding': `${encoding}` } });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
    }
  });
});

describe('the portal: cookies array in and out', () => {
  it('sets its cookies in `cookies`, reads them from `cookies`, and takes a base64 form body', async () => {
    const page = await raw('portal', { method: 'GET', path: '/portal/setup' });
    expect(page.statusCode).toBe(200);
    expect(page.headers?.['set-cookie']).toBeUndefined();
    expect(page.cookies?.length).toBeGreaterThan(0);
    expect(page.cookies![0]).toMatch(/^__Host-tms_csrf=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    const csrf = /name="csrf-token" content="([^"]+)"/.exec(page.body)![1]!;
    const cookies = page.cookies!.map((c) => c.split(';')[0]!);
    const form = new URLSearchParams({ _csrf: csrf, admin_token: ADMIN_TOKEN, email: 'owner@example.com', password: 'correct horse battery', account_name: 'Acme', plan: 'team' }).toString();
    const done = await raw('portal', {
      method: 'POST',
      path: '/portal/setup',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      base64: true,
      cookies: [...cookies, 'other=1'],
    });
    expect([done.statusCode, done.headers?.['location']]).toEqual([303, '/portal']);
    const session = done.cookies?.find((c) => c.startsWith('__Host-tms_session='));
    expect(session).toBeDefined();
    const home = await raw('portal', { method: 'GET', path: '/portal', cookies: [session!.split(';')[0]!, 'x=y'] });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('owner@example.com');
    const css = answerOf(await raw('portal', { method: 'GET', path: '/portal/assets/portal.css' }));
    expect([css.status, css.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
  });
});

describe('a GET or HEAD that carries a body', () => {
  it('is answered as the local server answers it, not with a bare 400', async () => {
    for (const method of ['GET', 'HEAD']) {
      const request = { method, path: '/v1/keys', headers: { 'x-api-key': key }, body: {} };
      const lambda = await invoke('keys', request);
      expect(lambda.status, method).toBe(200);
    }
  });
});
