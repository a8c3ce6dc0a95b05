// SQS refusing sends (a 500, throttling, a network error) while rebuilds are requested. The request
// used to be committed first and sent after: a refused send left `pending: true, build_state:
// "queued"` with no message on its way to a builder (on SQS nothing reads cache_state), and with
// auto_rebuild the write's 200 hid that nothing was queued. Now the send is part of the request's
// transaction: refused, it rolls the request back and answers the dependency error; auto_rebuild's
// write stays committed and the status shows no build that nothing will run.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReceiveMessageCommand, ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../core/log.ts';
import { startEmulatedAws, type EmulatedAws } from '../support/emulated-aws.ts';
import { startTestApp } from '../support/test-app.ts';
import { seed } from '../support/cache-helpers.ts';

let aws: EmulatedAws;
let app: Awaited<ReturnType<typeof startTestApp>>;
let forwarder: Server;
const log = createMemoryLogger();
/** While true, the SQS endpoint answers every call with a 500 InternalError (an SQS outage). */
let failing = false;

beforeAll(async () => {
  aws = await startEmulatedAws();
  // SQS as the app sees it: the emulator behind a switch.
  forwarder = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (failing) {
      res.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ __type: 'com.amazonaws.sqs#InternalError', message: 'We encountered an internal error. Please try again.' }));
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers[name] = value;
    const answer = await fetch(`${aws.endpoints.SQS_ENDPOINT}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
  const sqsEndpoint = `http://127.0.0.1:${(forwarder.address() as AddressInfo).port}`;
  app = await startTestApp({
    log,
    env: { ...aws.endpoints, SQS_ENDPOINT: sqsEndpoint, S3_BUCKET: aws.s3.bucket, SQS_QUEUE_URL: aws.queueUrl, AUTO_REBUILD_DEBOUNCE_MS: '0' },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await new Promise((r) => forwarder?.close(r));
  await aws?.close();
});

/** Whether the rebuild queue holds a message for the project (put back visible afterwards). */
async function queuedFor(projectId: string): Promise<boolean> {
  const out = await aws.client.send(new ReceiveMessageCommand({ QueueUrl: aws.queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 30 }));
  const messages = out.Messages ?? [];
  for (const m of messages) await aws.client.send(new ChangeMessageVisibilityCommand({ QueueUrl: aws.queueUrl, ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: 0 }));
  return messages.some((m) => (JSON.parse(m.Body!) as { projectId: string }).projectId === projectId);
}

async function whileSqsFails<T>(work: () => Promise<T>): Promise<T> {
  failing = true;
  try {
    return await work();
  } finally {
    failing = false;
  }
}

describe('rebuild requests while SQS refuses sends', () => {
  it('(control) through the forwarder, a rebuild request is queued and the status says so', async () => {
    const p = await app.newProject();
    await seed(app, p, { 'home.title': { de: ['Hallo', 'approved'] } });
    expect((await app.call(p.apiKey, 'POST', '/v1/cache/rebuild')).status).toBe(202);
    const status = await (await app.call(p.apiKey, 'GET', '/v1/cache/status')).json();
    expect({ pending: status.pending, build_state: status.build_state, queued: await queuedFor(p.projectId) }).toEqual({ pending: true, build_state: 'queued', queued: true });
  }, 60_000);

  it('POST /v1/cache/rebuild answers the dependency error and records nothing; asked again, it queues', async () => {
    const p = await app.newProject();
    await seed(app, p, { 'home.title': { de: ['Hallo', 'approved'] } });
    const refused = await whileSqsFails(() => app.call(p.apiKey, 'POST', '/v1/cache/rebuild'));
    expect(refused.status).toBe(500);
    expect(await refused.json()).toEqual({ detail: 'A dependency is unavailable; retry once after 1 to 2 seconds' });
    expect(log.lines.some((l) => l.msg === 'rebuild not queued' && l.project_id === p.projectId)).toBe(true);
    expect(await (await app.call(p.apiKey, 'GET', '/v1/cache/status')).json()).toMatchObject({ pending: false, build_state: 'idle' });
    expect(await queuedFor(p.projectId)).toBe(false);

    expect((await app.call(p.apiKey, 'POST', '/v1/cache/rebuild')).status).toBe(202);
    expect(await (await app.call(p.apiKey, 'GET', '/v1/cache/status')).json()).toMatchObject({ pending: true, build_state: 'queued' });
    expect(await queuedFor(p.projectId)).toBe(true);
  }, 60_000);

  it('auto_rebuild: the write is answered 200 and kept; the status shows no build that nothing will run', async () => {
    const p = await app.newProject();
    const ids = await seed(app, p, { 'home.title': { de: ['Hallo', 'approved'] } });
    expect((await app.admin('PATCH', `/projects/${p.projectId}`, { auto_rebuild: true })).status).toBe(200);
    const written = await whileSqsFails(() =>
      app.call(p.apiKey, 'PUT', `/v1/keys/${ids['home.title']}/translations/de`, { value: 'Servus', status: 'approved' }),
    );
    expect(written.status).toBe(200);
    expect(await (await app.call(p.apiKey, 'GET', '/v1/translations/de/home/home.title')).json()).toMatchObject({ value: 'Servus' });
    expect(await (await app.call(p.apiKey, 'GET', '/v1/cache/status')).json()).toMatchObject({ pending: false, build_state: 'idle' });
    expect(await queuedFor(p.projectId)).toBe(false);
    expect(log.lines.some((l) => l.msg === 'auto rebuild not queued' && l.project_id === p.projectId)).toBe(true);
  }, 60_000);
});
