// Every HTTP Lambda entry, invoked with API Gateway v2 and function URL events, against the local
// app (createApi over all groups) on the same database, bucket and queue: the same request gets the
// same answer, and what one side writes the other reads. The AWS path is offline: s3rver for S3,
// the JSON-protocol SQS emulator, and (with REDIS_URL) Upstash's REST protocol bridged to Redis.
import { DeleteMessageCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LambdaEvent } from 'hono/aws-lambda';
import type { HttpHandler } from '../../functions/lambda/http-handler.ts';
import type { RebuildHandler } from '../../functions/lambda/rebuild-handler.ts';
import { ADMIN_TOKEN, startTestApp, type TestProject } from '../support/test-app.ts';
import { startEmulatedAws, DISTRIBUTION_ID, type EmulatedAws } from '../support/emulated-aws.ts';
import { startSharedDatabase, type SharedDatabase } from '../support/shared-database.ts';
import { startUpstashBridge, type UpstashBridge } from '../support/upstash-bridge.ts';
import {
  answerOf,
  answerOfResponse,
  apiGatewayEvent,
  functionUrlEvent,
  linkEnv,
  requestInit,
  sqsRecord,
  type Answer,
  type HttpRequest,
  type LambdaHttpResult,
  type SqsEventRecord,
  captureJsonLogs,
} from '../support/lambda-events.ts';
import { HTTP_FUNCTIONS, catalogueEntry, entryFileOf, type HttpFunctionName } from '../../functions/catalogue.ts';

type Group = HttpFunctionName;

let aws: EmulatedAws;
let s3: EmulatedAws['s3'];
let db: SharedDatabase;
let upstash: UpstashBridge | undefined;
let local: Awaited<ReturnType<typeof startTestApp>>;
let client: SQSClient;
let queueUrl: string;
let deadLetterUrl: string;
const handlers = {} as Record<Group, HttpHandler>;
// What the functions log (to stdout, i.e. CloudWatch), kept out of the test output.
const logged = captureJsonLogs();
let builder: RebuildHandler;

beforeAll(async () => {
  [aws, db] = await Promise.all([startEmulatedAws(), startSharedDatabase()]);
  ({ s3, client, queueUrl, deadLetterUrl } = aws);
  if (process.env.REDIS_URL) upstash = await startUpstashBridge({ redisUrl: process.env.REDIS_URL, token: 'upstash-test-token' });

  local = await startTestApp({
    env: aws.localEnv(db),
  });
  Object.assign(process.env, aws.endpoints, { LOG_REQUESTS: 'false' });
  // Every link any function has; each entry still uses only the ports it was given.
  Object.assign(
    process.env,
    linkEnv({
      DatabaseUrl: { value: db.url },
      AdminToken: { value: ADMIN_TOKEN },
      TranslationsBucket: { name: s3.bucket },
      RebuildQueue: { url: queueUrl },
      RebuildDeadLetterQueue: { url: deadLetterUrl },
      EdgeCache: { distributionId: DISTRIBUTION_ID },
      ...(upstash ? { UpstashRedisRestUrl: { value: upstash.url }, UpstashRedisRestToken: { value: 'upstash-test-token' } } : {}),
    }),
  );
  // Every HTTP function of the catalogue, loaded from the entry file its Lambda runs.
  for (const entry of HTTP_FUNCTIONS) {
    handlers[entry.name as Group] = ((await import(`../../${entryFileOf(entry)}`)) as { handler: HttpHandler }).handler;
  }
  builder = ((await import(`../../${entryFileOf(catalogueEntry('builder'))}`)) as { handler: RebuildHandler }).handler;
}, 60_000);

afterAll(async () => {
  for (const handler of [...Object.values(handlers), builder]) await handler?.deps().sql.end({ timeout: 1 });
  await local?.close();
  await Promise.all([db?.close(), aws?.close(), upstash?.close()]);
});

/** Invokes a function the way API Gateway (default) or a function URL would. */
async function invoke(group: Group, request: HttpRequest, via: 'api-gateway' | 'function-url' = 'api-gateway'): Promise<Answer> {
  const event = via === 'api-gateway' ? apiGatewayEvent(request) : functionUrlEvent(request);
  return answerOf((await handlers[group](event as unknown as LambdaEvent)) as LambdaHttpResult);
}

async function viaLocal(request: HttpRequest): Promise<Answer> {
  return answerOfResponse(await local.app.request(request.path, requestInit(request)));
}

// Headers that must agree. Not the quota's remaining count: each Lambda instance (and the local
// app) counts in its own memory unless both share Upstash/Redis, as on AWS they do.
const COMPARED_HEADERS = [
  'content-type',
  'content-encoding',
  'cache-control',
  'etag',
  'vary',
  'last-modified',
  'retry-after',
  'x-request-id',
  'x-ratelimit-limit',
  'ratelimit-policy',
];

function expectSameAnswer(lambda: Answer, local: Answer): void {
  expect(lambda.status).toBe(local.status);
  const pick = (a: Answer) => Object.fromEntries(COMPARED_HEADERS.filter((h) => a.headers[h] !== undefined).map((h) => [h, a.headers[h]]));
  expect(pick(lambda)).toEqual(pick(local));
  if ((local.headers['content-type'] ?? '').includes('json') && !local.headers['content-encoding']) {
    expect(lambda.json()).toEqual(local.json());
  }
  expect(lambda.body.equals(local.body)).toBe(true);
}

let requestCounter = 0;
/** Sends one request to a Lambda and to the local app (same X-Request-Id) and expects the same answer. */
async function same(group: Group, request: HttpRequest, via: 'api-gateway' | 'function-url' = 'api-gateway'): Promise<Answer> {
  const withId = { ...request, headers: { 'x-request-id': `parity-${++requestCounter}`, ...request.headers } };
  const lambda = await invoke(group, withId, via);
  const expected = await viaLocal(withId);
  expectSameAnswer(lambda, expected);
  return lambda;
}

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const withKey = (p: TestProject, headers: Record<string, string> = {}) => ({ 'x-api-key': p.apiKey, ...headers });

let p: TestProject;
const ids: Record<string, string> = {};

describe('health and the catch-all', () => {
  it('GET /health answers as the local server', async () => {
    const health = await same('health', { method: 'GET', path: '/health' });
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', db: 'ok', redis: 'ok' });
    expect(health.headers['cache-control']).toBe('no-store');
  });

  it('unknown paths reach the health function through $default and get the spec 404', async () => {
    for (const request of [
      { method: 'GET', path: '/nope' },
      { method: 'POST', path: '/v2/keys', body: { key: 'x' } },
      { method: 'DELETE', path: '/' },
    ]) {
      expect(apiGatewayEvent(request).routeKey).toBe('$default');
      const answer = await same('health', request);
      expect(answer.status).toBe(404);
      expect(answer.json()).toEqual({ detail: 'Not Found' });
    }
  });

  it('/portal/ answered by the catch-all function is the local server\'s redirect to /portal, query kept', async () => {
    // Whichever function API Gateway gives a bare trailing slash (`{proxy+}` may need a segment), the
    // browser lands on the portal: the health function's answer is the portal's own.
    const request = { method: 'GET', path: '/portal/?next=%2Fportal%2Fprojects' };
    const lambda = await invoke('health', { ...request, headers: { 'x-request-id': 'slash' } }, 'api-gateway');
    const local = await viaLocal({ ...request, headers: { 'x-request-id': 'slash' } });
    for (const answer of [lambda, local]) {
      expect(answer.status).toBe(308);
      expect(answer.headers['location']).toBe('/portal?next=%2Fportal%2Fprojects');
    }
  });

  it('GET /openapi.json serves the whole API, as the local server generates it', async () => {
    const doc = await same('health', { method: 'GET', path: '/openapi.json' });
    const paths = Object.keys((doc.json() as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(expect.arrayContaining(['/health', '/v1/keys', '/v1/cached/translations/{language}', '/admin/v1/accounts']));
  });
});

describe('admin', () => {
  it('creates an account and a project whose API key the local server accepts', async () => {
    const account = await invoke('admin', { method: 'POST', path: '/admin/v1/accounts', headers: admin, body: { name: 'Lambda Inc', plan: 'solo' } });
    expect(account.status).toBe(201);
    const accountId = (account.json() as { id: string }).id;
    const project = await invoke('admin', { method: 'POST', path: `/admin/v1/accounts/${accountId}/projects`, headers: admin, body: { name: 'app' } });
    expect(project.status).toBe(201);
    const created = project.json() as { id: string; api_key: { id: string; key: string } };
    p = { accountId, projectId: created.id, apiKey: created.api_key.key, apiKeyId: created.api_key.id };
    const keys = await viaLocal({ method: 'GET', path: '/v1/keys', headers: withKey(p) });
    expect(keys.status).toBe(200);
    expect(keys.json()).toEqual({ project_id: p.projectId, keys: [], count: 0 });
  });

  it('refuses a missing or wrong token, and bad bodies, as the local server does', async () => {
    await same('admin', { method: 'POST', path: '/admin/v1/accounts', body: { name: 'x', plan: 'free' } });
    await same('admin', { method: 'POST', path: '/admin/v1/accounts', headers: { authorization: 'Bearer nope' }, body: { name: 'x', plan: 'free' } });
    const invalid = await same('admin', { method: 'POST', path: '/admin/v1/accounts', headers: admin, body: { name: 'x', plan: 'platinum' } });
    expect(invalid.status).toBe(422);
  });
});

describe('keys, groups, languages', () => {
  it('a key created through the Lambda is read by the local server, and the other way round', async () => {
    const created = await invoke('keys', { method: 'POST', path: '/v1/keys', headers: withKey(p), body: { key: 'home.title', group_name: 'home' } });
    expect(created.status).toBe(201);
    ids['home.title'] = (created.json() as { id: string }).id;
    const listed = (await viaLocal({ method: 'GET', path: '/v1/keys', headers: withKey(p) })).json() as { keys: { key: string }[] };
    expect(listed.keys.map((k) => k.key)).toEqual(['home.title']);

    const other = await viaLocal({ method: 'POST', path: '/v1/keys', headers: withKey(p), body: { key: 'home.subtitle', group_name: 'home', description: 'Under the title' } });
    expect(other.status).toBe(201);
    ids['home.subtitle'] = (other.json() as { id: string }).id;
    const viaLambda = (await invoke('keys', { method: 'GET', path: '/v1/keys', headers: withKey(p) })).json() as { keys: { key: string }[] };
    expect(viaLambda.keys.map((k) => k.key)).toEqual(['home.subtitle', 'home.title']);
  });

  it('reads and refusals match the local server', async () => {
    await same('keys', { method: 'GET', path: '/v1/keys', headers: withKey(p) });
    await same('keys', { method: 'GET', path: '/v1/keys?group=home', headers: withKey(p) });
    await same('keys', { method: 'GET', path: '/v1/keys?group=none', headers: withKey(p) });
    await same('keys', { method: 'GET', path: '/v1/keys' }); // 401
    await same('keys', { method: 'GET', path: '/v1/keys', headers: withKey(p, { 'x-project-id': crypto.randomUUID() }) }); // 403
    await same('keys', { method: 'POST', path: '/v1/keys', headers: withKey(p), body: { key: 'home.title', group_name: 'home' } }); // 409
    await same('keys', { method: 'POST', path: '/v1/keys', headers: withKey(p, { 'content-type': 'application/json' }), body: '{"key": ' }); // 422 json
    await same('keys', { method: 'POST', path: '/v1/keys', headers: withKey(p), body: 'key=x' }); // 415
    await same('keys', { method: 'POST', path: '/v1/keys', headers: withKey(p), body: { key: 'x', grup: 'typo' } }); // 422 extra
    await same('keys', { method: 'PATCH', path: '/v1/keys/not-a-uuid', headers: withKey(p), body: { description: 'x' } }); // 422 path
    await same('keys', { method: 'DELETE', path: `/v1/keys/${crypto.randomUUID()}`, headers: withKey(p) }); // 404
    await same('keys', { method: 'GET', path: '/v1/keys/a/b/c/d', headers: withKey(p) }); // unknown route in the group
    const tooBig = await same('keys', {
      method: 'POST',
      path: '/v1/keys',
      headers: withKey(p),
      body: { key: 'big', description: 'x'.repeat(1024 * 1024) },
    });
    expect(tooBig.status).toBe(413);
  });

  it('languages: written on one side, listed the same on both', async () => {
    expect((await viaLocal({ method: 'POST', path: '/v1/languages', headers: withKey(p), body: { code: 'de' } })).status).toBe(201);
    const added = await invoke('languages', { method: 'POST', path: '/v1/languages', headers: withKey(p), body: { code: 'PT-br' } });
    expect(added.status).toBe(201);
    expect(added.json()).toEqual({ project_id: p.projectId, code: 'pt-BR', added: true });
    await same('languages', { method: 'GET', path: '/v1/languages', headers: withKey(p) });
    await same('languages', { method: 'POST', path: '/v1/languages', headers: withKey(p), body: { code: 'de' } }); // 409
    await same('languages', { method: 'POST', path: '/v1/languages', headers: withKey(p), body: { code: 'en_US' } }); // 422
    await same('languages', { method: 'DELETE', path: '/v1/languages/fr', headers: withKey(p) }); // 404
  });

  it('a base64-encoded body (function URL) writes the same as a plain one', async () => {
    const put = await invoke(
      'keys',
      {
        method: 'PUT',
        path: `/v1/keys/${ids['home.title']}/translations/de`,
        headers: withKey(p),
        body: { value: 'Willkommen 👋', status: 'approved' },
        base64: true,
      },
      'function-url',
    );
    expect(put.status).toBe(200);
    expect(put.json()).toEqual({ key_id: ids['home.title'], language: 'de', value: 'Willkommen 👋', status: 'approved', project_id: p.projectId, version: expect.any(Number), warnings: [] });
    const read = await viaLocal({ method: 'GET', path: '/v1/translations/de/home/home.title', headers: withKey(p) });
    expect(read.json()).toMatchObject({ value: 'Willkommen 👋', status: 'approved' });
  });

  it('values for the live and cached reads', async () => {
    const values: [string, string, string, string][] = [
      ['home.subtitle', 'de', 'Schön, dass du da bist', 'approved'],
      ['home.title', 'pt-BR', 'Bem-vindo', 'approved'],
      ['home.subtitle', 'pt-BR', 'Rascunho', 'draft'],
    ];
    for (const [key, language, value, status] of values) {
      const put = await invoke('keys', { method: 'PUT', path: `/v1/keys/${ids[key]}/translations/${language}`, headers: withKey(p), body: { value, status } });
      expect(put.status).toBe(200);
    }
  });

  it('groups: listed the same; renamed through the Lambda, seen by the local server', async () => {
    const extra = await invoke('keys', { method: 'POST', path: '/v1/keys', headers: withKey(p), body: { key: 'menu.open', group_name: 'menu' } });
    ids['menu.open'] = (extra.json() as { id: string }).id;
    await same('groups', { method: 'GET', path: '/v1/groups', headers: withKey(p) });
    await same('groups', { method: 'POST', path: '/v1/groups', headers: withKey(p), body: { name: 'home' } }); // 409
    await same('groups', { method: 'POST', path: '/v1/groups', headers: withKey(p), body: { name: 'bad/name' } }); // 422
    await same('groups', { method: 'PATCH', path: '/v1/groups/nothing', headers: withKey(p), body: { new_name: 'x' } }); // 404
    const renamed = await invoke('groups', { method: 'PATCH', path: '/v1/groups/menu', headers: withKey(p), body: { new_name: 'Main menu' } });
    expect(renamed.json()).toEqual({ project_id: p.projectId, old_name: 'menu', new_name: 'Main menu', keys_updated: 1 });
    // A group name with a space travels percent-encoded in rawPath.
    const deleted = await invoke('groups', { method: 'DELETE', path: '/v1/groups/Main%20menu', headers: withKey(p) });
    expect(deleted.status).toBe(204);
    expect(deleted.body.length).toBe(0);
    expect((await viaLocal({ method: 'GET', path: '/v1/groups', headers: withKey(p) })).json()).toEqual({ project_id: p.projectId, groups: ['home'], count: 1 });
  });
});

describe('live translations and the manifest', () => {
  it('answer as the local server, over API Gateway and function URLs', async () => {
    for (const via of ['api-gateway', 'function-url'] as const) {
      await same('translations', { method: 'GET', path: '/v1/translations/de', headers: withKey(p) }, via);
      await same('translations', { method: 'GET', path: '/v1/translations/pt-BR?status=all', headers: withKey(p) }, via);
      await same('translations', { method: 'GET', path: '/v1/translations/pt-br/home?status=draft', headers: withKey(p) }, via);
      await same('translations', { method: 'GET', path: '/v1/translations/de/home/home.title', headers: withKey(p) }, via);
      await same('translations', { method: 'GET', path: '/v1/translations/pt-BR/home/home.subtitle', headers: withKey(p) }, via); // 404 draft
      await same('translations', { method: 'GET', path: '/v1/translations/fr', headers: withKey(p) }, via); // 404
      await same('translations', { method: 'GET', path: '/v1/translations/de?status=bogus', headers: withKey(p) }, via); // 422
      await same('manifest', { method: 'GET', path: '/v1/manifest', headers: withKey(p) }, via);
    }
    const manifest = (await invoke('manifest', { method: 'GET', path: '/v1/manifest', headers: withKey(p) })).json();
    expect(manifest).toMatchObject({ project_id: p.projectId, languages: [{ code: 'de', approved_count: 2 }, { code: 'pt-BR', approved_count: 1 }] });
  });
});

/** Receives what is in the rebuild queue as Lambda's event source would hand it to the builder. */
async function receiveRecords() {
  const out = await client.send(
    new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, MessageSystemAttributeNames: ['All'], VisibilityTimeout: 30 }),
  );
  return (out.Messages ?? []).map((m) =>
    sqsRecord({ messageId: m.MessageId!, receiptHandle: m.ReceiptHandle!, body: m.Body!, attributes: m.Attributes }),
  );
}

/** Invokes the builder with the records, then deletes the ones it did not fail, as Lambda's event source mapping does. */
async function runBuilder(records: SqsEventRecord[]) {
  const response = await builder({ Records: records });
  const failed = new Set(response.batchItemFailures.map((f) => f.itemIdentifier));
  for (const r of records) {
    if (!failed.has(r.messageId)) await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: r.receiptHandle }));
  }
  return response;
}

describe('the cache over SQS and S3', () => {
  it('before any build: status and cached reads answer as the local server', async () => {
    const status = await same('cacheBuilds', { method: 'GET', path: '/v1/cache/status', headers: withKey(p) });
    expect(status.json()).toEqual({
      project_id: p.projectId, last_rebuilt_at: null, ready: false, pending: false, build_state: 'idle', failed_at: null, last_error: null,
    });
    const notReady = await same('cached', { method: 'GET', path: '/v1/cached/translations/de', headers: withKey(p) });
    expect(notReady.status).toBe(503);
  });

  it('POST rebuild through the Lambda queues one FIFO message; the builder Lambda builds it', async () => {
    const queued = await invoke('cacheBuilds', { method: 'POST', path: '/v1/cache/rebuild', headers: withKey(p) });
    expect(queued.status).toBe(202);
    expect(queued.json()).toMatchObject({ project_id: p.projectId, status: 'queued' });
    const records = await receiveRecords();
    expect(records).toHaveLength(1);
    expect(JSON.parse(records[0]!.body)).toEqual({ projectId: p.projectId, seq: 1 });
    expect(records[0]!.attributes.MessageGroupId).toBe(p.projectId);
    expect(await runBuilder(records)).toEqual({ batchItemFailures: [] });
    const status = await same('cacheBuilds', { method: 'GET', path: '/v1/cache/status', headers: withKey(p) });
    expect(status.json()).toMatchObject({ ready: true });
  });

  it('cached reads: the same bytes, encodings, validators and 304s as the local server', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const headers = withKey(p, { 'accept-encoding': encoding === 'identity' ? 'identity' : `${encoding}, identity` });
      const language = await same('cached', { method: 'GET', path: '/v1/cached/translations/de', headers });
      expect(language.status).toBe(200);
      expect(language.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
      const group = await same('cached', { method: 'GET', path: '/v1/cached/translations/pt-BR/home', headers });
      expect(group.status).toBe(200);
      // A 304 for the etag of any coding of the same content, weak or strong.
      const etag = language.headers['etag']!;
      const revalidated = await same('cached', { method: 'GET', path: '/v1/cached/translations/de', headers: { ...headers, 'if-none-match': `W/${etag}` } });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body.length).toBe(0);
    }
    // What API Gateway decodes from base64 is the stored brotli file: decompressed, the live body.
    const br = await invoke('cached', { method: 'GET', path: '/v1/cached/translations/de', headers: withKey(p, { 'accept-encoding': 'br' }) });
    const { brotliDecompressSync } = await import('node:zlib');
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual({
      project_id: p.projectId,
      language: 'de',
      status_filter: 'approved',
      count: 2,
      translations: { 'home.subtitle': 'Schön, dass du da bist', 'home.title': 'Willkommen 👋' },
    });
    const value = await same('cached', { method: 'GET', path: '/v1/cached/translations/de/home/home.title', headers: withKey(p) }, 'function-url');
    expect(value.json()).toEqual({ value: 'Willkommen 👋' });
    await same('cached', { method: 'GET', path: '/v1/cached/manifest', headers: withKey(p) });
    await same('cached', { method: 'GET', path: '/v1/cached/translations/fr', headers: withKey(p) }); // 404
    await same('cached', { method: 'GET', path: '/v1/cached/translations/de/nope/x', headers: withKey(p) }); // 404
    await same('cached', { method: 'GET', path: '/v1/cached/translations/de', headers: { 'x-api-key': 'key_live_nope' } }); // 401
  });

  it('auto_rebuild: each write through a Lambda queues its rebuild at once; one build covers them all', async () => {
    // A new project, switched on before its key is first used: a Lambda instance trusts a verified
    // key (and the project settings it carries) for API_KEY_CACHE_SECONDS, like any other process.
    const account = await invoke('admin', { method: 'POST', path: '/admin/v1/accounts', headers: admin, body: { name: 'Auto', plan: 'solo' } });
    const project = await invoke('admin', { method: 'POST', path: `/admin/v1/accounts/${(account.json() as { id: string }).id}/projects`, headers: admin, body: { name: 'auto' } });
    const { id: projectId, api_key: { key } } = project.json() as { id: string; api_key: { key: string } };
    const patched = await invoke('admin', { method: 'PATCH', path: `/admin/v1/projects/${projectId}`, headers: admin, body: { auto_rebuild: true } });
    expect(patched.status).toBe(200);
    const headers = { 'x-api-key': key };
    expect((await invoke('languages', { method: 'POST', path: '/v1/languages', headers, body: { code: 'fr' } })).status).toBe(201);
    const created = await invoke('keys', { method: 'POST', path: '/v1/keys', headers, body: { key: 'menu.open', group_name: 'menu' } });
    const keyId = (created.json() as { id: string }).id;
    const put = await invoke('keys', { method: 'PUT', path: `/v1/keys/${keyId}/translations/fr`, headers, body: { value: 'Ouvrir', status: 'approved' } });
    expect(put.status).toBe(200);
    const records = await receiveRecords();
    expect(records.map((r) => JSON.parse(r.body))).toEqual([1, 2, 3].map((seq) => ({ projectId, seq })));
    expect(await runBuilder(records)).toEqual({ batchItemFailures: [] });
    // Read through the local server: the Lambda builder's output, served from S3.
    const group = await viaLocal({ method: 'GET', path: '/v1/cached/translations/fr/menu', headers });
    expect((group.json() as { translations: Record<string, string> }).translations).toEqual({ 'menu.open': 'Ouvrir' });
    await same('cached', { method: 'GET', path: '/v1/cached/translations/fr/menu', headers: { ...headers, 'accept-encoding': 'gzip' } });
  });
});

describe('screenshots in S3', () => {
  it('an image uploaded base64-encoded through API Gateway is stored as sent, read back the same by both, and removed with its row', async () => {
    const { readFileSync } = await import('node:fs');
    const png = readFileSync(new URL('../fixtures/screenshots/sign-in.png', import.meta.url));
    const uploaded = await invoke('screenshots', { method: 'POST', path: `/v1/screenshots?name=Sign%20in&key_id=${ids['home.title']}`, headers: withKey(p, { 'content-type': 'image/png' }), body: png, base64: true });
    expect(uploaded.status).toBe(201);
    const shot = uploaded.json() as { id: string; width: number; keys: { key: string }[] };
    expect(shot).toMatchObject({ width: 390, keys: [{ key: 'home.title' }] });
    const image = await same('screenshots', { method: 'GET', path: `/v1/screenshots/${shot.id}/image`, headers: withKey(p) });
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.body.equals(png)).toBe(true);
    const revalidated = await same('screenshots', { method: 'GET', path: `/v1/screenshots/${shot.id}/image`, headers: withKey(p, { 'if-none-match': image.headers['etag']! }) });
    expect(revalidated.status).toBe(304);
    await same('screenshots', { method: 'GET', path: `/v1/screenshots/${shot.id}`, headers: withKey(p) });
    await same('screenshots', { method: 'GET', path: `/v1/screenshots?key_id=${ids['home.title']}`, headers: withKey(p) });
    const objects = () => local.runtime.deps.objects.list(`projects/${p.projectId}/screenshots/`);
    expect(await objects()).toEqual([`projects/${p.projectId}/screenshots/${shot.id}`]);
    expect((await invoke('screenshots', { method: 'DELETE', path: `/v1/screenshots/${shot.id}`, headers: withKey(p) })).status).toBe(204);
    expect(await objects()).toEqual([]);
    await same('screenshots', { method: 'GET', path: `/v1/screenshots/${shot.id}/image`, headers: withKey(p) }); // 404
  });
});

describe('paths API Gateway hands over decoded', () => {
  it('a key whose name holds ?, #, % and non-ASCII is read the same through every door', async () => {
    const key = 'faq.100% sure? #1 ünï 👋';
    const created = await invoke('keys', { method: 'POST', path: '/v1/keys', headers: withKey(p), body: { key, group_name: 'faq' } });
    expect(created.status).toBe(201);
    const id = (created.json() as { id: string }).id;
    const put = await invoke('keys', { method: 'PUT', path: `/v1/keys/${id}/translations/de`, headers: withKey(p), body: { value: 'Ja', status: 'approved' } });
    expect(put.status).toBe(200);
    const path = `/v1/translations/de/faq/${encodeURIComponent(key)}`;
    expect(apiGatewayEvent({ method: 'GET', path }).rawPath).toBe(`/v1/translations/de/faq/${key}`);
    for (const via of ['api-gateway', 'function-url'] as const) {
      const value = await same('translations', { method: 'GET', path: `${path}?status=approved`, headers: withKey(p) }, via);
      expect(value.json()).toEqual({ key, group: 'faq', language: 'de', value: 'Ja', status: 'approved' });
    }
    expect((await invoke('cacheBuilds', { method: 'POST', path: '/v1/cache/rebuild', headers: withKey(p) })).status).toBe(202);
    expect(await runBuilder(await receiveRecords())).toEqual({ batchItemFailures: [] });
    // Servers hold a project's current-build pointer for a second: the new build shows after that.
    const cachedPath = `/v1/cached/translations/de/faq/${encodeURIComponent(key)}`;
    await expect.poll(async () => (await invoke('cached', { method: 'GET', path: cachedPath, headers: withKey(p) })).status, { timeout: 3000, interval: 200 }).toBe(200);
    await expect.poll(async () => (await viaLocal({ method: 'GET', path: cachedPath, headers: withKey(p) })).status, { timeout: 3000, interval: 200 }).toBe(200);
    const cached = await same('cached', { method: 'GET', path: cachedPath, headers: withKey(p) });
    expect(cached.json()).toEqual({ value: 'Ja' });
  });
});

describe('ports a function was not given', () => {
  it('the translations function has no queue and no bucket: guards, not stand-ins', async () => {
    const deps = handlers.translations.deps();
    await expect(deps.queue.send({ projectId: p.projectId, seq: 1 })).rejects.toThrow('queue is not configured for this function');
    await expect(deps.objects.get('x')).rejects.toThrow('objects is not configured for this function');
  });

  it('every function shares one Deps across invocations of an instance', async () => {
    const first = handlers.keys.deps();
    await invoke('keys', { method: 'GET', path: '/v1/keys', headers: withKey(p) });
    expect(handlers.keys.deps()).toBe(first);
  });

  it.runIf(Boolean(process.env.REDIS_URL))('with Upstash linked, quotas are shared by every instance', async () => {
    const remaining = async (group: Group) =>
      Number((await invoke(group, { method: 'GET', path: group === 'keys' ? '/v1/keys' : '/v1/languages', headers: withKey(p) })).headers['x-ratelimit-remaining']);
    expect(logged.map((l) => l.msg)).not.toContain('UPSTASH_REDIS_REST_URL/TOKEN not linked: daily quotas are counted per Lambda instance');
    const before = await remaining('keys');
    expect(await remaining('languages')).toBe(before - 1);
    expect(await remaining('keys')).toBe(before - 2);
  });
});
