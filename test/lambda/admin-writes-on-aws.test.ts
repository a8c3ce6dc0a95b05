// What a team deploying its own stage meets on AWS that the one-process server cannot show: the
// admin function's writes queue rebuilds through its own SQS link (it had none, so a restore or a
// fallback change with auto_rebuild never rebuilt, while the cache status said "queued"), and a 402's
// upgrade_url leads to a path the deployed API serves. Each test invokes the Lambda entries
// (functions/<group>/handler.ts) with API Gateway v2 events, over the emulated AWS account (s3rver,
// the SQS emulator) and one shared database, as test/lambda/http-handlers does.
import { DeleteMessageCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LambdaEvent } from 'hono/aws-lambda';
import type { HttpHandler } from '../../functions/lambda/http-handler.ts';
import type { RebuildHandler } from '../../functions/lambda/rebuild-handler.ts';
import { ADMIN_TOKEN } from '../support/test-app.ts';
import { startEmulatedAws, DISTRIBUTION_ID, type EmulatedAws } from '../support/emulated-aws.ts';
import { startSharedDatabase, type SharedDatabase } from '../support/shared-database.ts';
import { answerOf, apiGatewayEvent, captureJsonLogs, linkEnv, sqsRecord, type Answer, type HttpRequest, type LambdaHttpResult } from '../support/lambda-events.ts';
import { HTTP_FUNCTIONS, catalogueEntry, entryFileOf, type HttpFunctionName } from '../../functions/catalogue.ts';
import { upgradeEnvironment } from '../../stacks/deploy-settings.ts';

const GROUPS = ['admin', 'keys', 'languages', 'import', 'cacheBuilds'] as const satisfies readonly HttpFunctionName[];
type Group = (typeof GROUPS)[number];

let aws: EmulatedAws;
let db: SharedDatabase;
let client: SQSClient;
let queueUrl: string;
const handlers = {} as Record<Group, HttpHandler>;
let builder: RebuildHandler;
const logged = captureJsonLogs();

beforeAll(async () => {
  [aws, db] = await Promise.all([startEmulatedAws(), startSharedDatabase()]);
  ({ client, queueUrl } = aws);
  // The settings stacks/api.ts gives every HTTP function when TMS_UPGRADE_URL is unset.
  Object.assign(process.env, aws.endpoints, { LOG_REQUESTS: 'false' }, upgradeEnvironment({}));
  // Every link any function has (more than the stacks give some): each entry still uses only the
  // ports its handler.ts passes.
  Object.assign(
    process.env,
    linkEnv({
      DatabaseUrl: { value: db.url },
      AdminToken: { value: ADMIN_TOKEN },
      TranslationsBucket: { name: aws.s3.bucket },
      RebuildQueue: { url: queueUrl },
      RebuildDeadLetterQueue: { url: aws.deadLetterUrl },
      EdgeCache: { distributionId: DISTRIBUTION_ID },
    }),
  );
  for (const name of GROUPS) {
    handlers[name] = ((await import(`../../${entryFileOf(catalogueEntry(name))}`)) as { handler: HttpHandler }).handler;
  }
  builder = ((await import(`../../${entryFileOf(catalogueEntry('builder'))}`)) as { handler: RebuildHandler }).handler;
}, 60_000);

afterAll(async () => {
  for (const handler of [...Object.values(handlers), builder]) await handler?.deps().sql.end({ timeout: 1 });
  await Promise.all([db?.close(), aws?.close()]);
});

async function invoke(group: Group, request: HttpRequest): Promise<Answer> {
  return answerOf((await handlers[group](apiGatewayEvent(request) as unknown as LambdaEvent)) as LambdaHttpResult);
}

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** Every rebuild message waiting in the FIFO queue, deleted as it is read. */
async function drainQueue(): Promise<{ projectId: string; seq: number }[]> {
  const bodies: { projectId: string; seq: number }[] = [];
  for (;;) {
    const out = await client.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 600 }));
    if (!out.Messages?.length) return bodies;
    bodies.push(...out.Messages.map((m) => JSON.parse(m.Body!) as { projectId: string; seq: number }));
    // Deleted, as the event source mapping does: a FIFO group holds back later messages while one is in flight.
    for (const m of out.Messages) await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! }));
  }
}

async function autoRebuildProject(name: string) {
  const account = await invoke('admin', { method: 'POST', path: '/admin/v1/accounts', headers: admin, body: { name, plan: 'team' } });
  const accountId = (account.json() as { id: string }).id;
  const project = await invoke('admin', { method: 'POST', path: `/admin/v1/accounts/${accountId}/projects`, headers: admin, body: { name } });
  const { id: projectId, api_key: { key } } = project.json() as { id: string; api_key: { key: string } };
  expect((await invoke('admin', { method: 'PATCH', path: `/admin/v1/projects/${projectId}`, headers: admin, body: { auto_rebuild: true } })).status).toBe(200);
  return { accountId, projectId, headers: { 'x-api-key': key } };
}

describe('auto_rebuild and the admin function', () => {
  it('restoring a deleted key through the admin API on AWS queues the rebuild (the restored key reaches the CDN)', async () => {
    const { projectId, headers } = await autoRebuildProject('restore');
    const created = await invoke('keys', { method: 'POST', path: '/v1/keys', headers, body: { key: 'menu.open', group_name: 'menu' } });
    expect(created.status).toBe(201);
    const keyId = (created.json() as { id: string }).id;
    expect((await invoke('keys', { method: 'DELETE', path: `/v1/keys/${keyId}`, headers })).status).toBe(204);
    await drainQueue(); // the writes above queued theirs through the keys function, as they should

    const restored = await invoke('admin', { method: 'POST', path: `/admin/v1/projects/${projectId}/keys/${keyId}/restore`, headers: admin });
    expect(restored.status).toBe(200);
    // Without its queue link the function logged "auto rebuild not queued: queue is not configured
    // for this function" and nothing reached the queue.
    const failures = logged.filter((l) => l.msg === 'auto rebuild not queued' && (l as { project_id?: string }).project_id === projectId);
    expect(failures.map((l) => (l as { error?: string }).error)).toEqual([]);
    expect(await drainQueue()).toContainEqual(expect.objectContaining({ projectId }));
  });

  it("changing a project's fallbacks through the admin API on AWS queues the rebuild (cached files get the new chain)", async () => {
    const { projectId, headers } = await autoRebuildProject('fallbacks');
    for (const code of ['fr', 'fr-CA']) {
      expect((await invoke('languages', { method: 'POST', path: '/v1/languages', headers, body: { code } })).status).toBe(201);
    }
    await drainQueue();
    const patched = await invoke('admin', { method: 'PATCH', path: `/admin/v1/projects/${projectId}`, headers: admin, body: { fallbacks: { 'fr-CA': ['fr'] } } });
    expect(patched.status).toBe(200);
    expect(await drainQueue()).toContainEqual(expect.objectContaining({ projectId }));
  });

  it('after an admin restore, GET /v1/cache/status says queued and the queue holds its message', async () => {
    const { projectId, headers } = await autoRebuildProject('stuck');
    const created = await invoke('keys', { method: 'POST', path: '/v1/keys', headers, body: { key: 'menu.close', group_name: 'menu' } });
    const keyId = (created.json() as { id: string }).id;
    expect((await invoke('keys', { method: 'DELETE', path: `/v1/keys/${keyId}`, headers })).status).toBe(204);
    // Everything queued so far is built, as the builder Lambda would.
    const out = await client.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 600, MessageSystemAttributeNames: ['All'] }));
    const records = (out.Messages ?? []).map((m) => sqsRecord({ messageId: m.MessageId!, receiptHandle: m.ReceiptHandle!, body: m.Body!, attributes: m.Attributes }));
    expect(await builder({ Records: records })).toEqual({ batchItemFailures: [] });
    for (const r of records) await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: r.receiptHandle }));
    expect(((await invoke('cacheBuilds', { method: 'GET', path: '/v1/cache/status', headers })).json() as { build_state: string }).build_state).toBe('idle');

    expect((await invoke('admin', { method: 'POST', path: `/admin/v1/projects/${projectId}/keys/${keyId}/restore`, headers: admin })).status).toBe(200);
    const status = (await invoke('cacheBuilds', { method: 'GET', path: '/v1/cache/status', headers })).json() as { build_state: string };
    const queued = await drainQueue();
    // A "queued" status must have a message the builder will receive.
    expect({ build_state: status.build_state, messages: queued.filter((m) => m.projectId === projectId).length }).toEqual({ build_state: 'queued', messages: 1 });
  });
});

describe('402 QUOTA_EXCEEDED on AWS', () => {
  it('upgrade_url names a path a deployed function serves (the portal), not the local-only /docs', async () => {
    const account = await invoke('admin', { method: 'POST', path: '/admin/v1/accounts', headers: admin, body: { name: 'Quota', plan: 'solo' } });
    const accountId = (account.json() as { id: string }).id;
    expect((await invoke('admin', { method: 'PATCH', path: `/admin/v1/accounts/${accountId}`, headers: admin, body: { translation_unit_allowance: 0 } })).status).toBe(200);
    const project = await invoke('admin', { method: 'POST', path: `/admin/v1/accounts/${accountId}/projects`, headers: admin, body: { name: 'quota' } });
    const { api_key: { key } } = project.json() as { api_key: { key: string } };
    const headers = { 'x-api-key': key };
    expect((await invoke('languages', { method: 'POST', path: '/v1/languages', headers, body: { code: 'de' } })).status).toBe(201);
    const imported = await invoke('import', {
      method: 'POST',
      path: '/v1/import/de?format=json&dry_run=true',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{"home.title":"Hallo"}',
    });
    expect(imported.status).toBe(402);
    const upgradeUrl = new URL((imported.json() as { detail: { upgrade_url: string } }).detail.upgrade_url);
    expect(upgradeUrl.pathname).toBe('/portal');
    // API Gateway routes it to the function whose prefix claims it (a path no group claims goes to
    // the health function's 404, as /docs did).
    expect(HTTP_FUNCTIONS.find((f) => upgradeUrl.pathname === f.prefix || upgradeUrl.pathname.startsWith(`${f.prefix}/`))?.name).toBe('portal');
  });
});
