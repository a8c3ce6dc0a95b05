// A test HTTP server standing in for a project's webhook endpoint. It verifies every request it gets
// with the reference `standardwebhooks` package, remembers them, and can be told to misbehave:
// answer 500, redirect, hang past the timeout, or go down altogether (and come back on the same port).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';
import { Webhook } from 'standardwebhooks';

export type Received = {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What standardwebhooks' verify() returned (the parsed payload), or undefined when it threw. */
  verified: { type: string; timestamp: string; data: Record<string, unknown> } | undefined;
  /** The answer given. */
  status: number;
};

export type ReceiverMode = 'ok' | 'fail' | 'redirect' | 'hang';

export type WebhookReceiver = {
  url(path?: string): string;
  received: Received[];
  /** Requests answered 2xx and verified. */
  accepted(): Received[];
  mode: ReceiverMode;
  /** The secret to verify with (the one the creation answer showed). */
  secret: string | undefined;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
};

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const sockets = new Set<Socket>();
  let port = 0;
  const receiver: WebhookReceiver = {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received: [],
    accepted: () => receiver.received.filter((r) => r.status >= 200 && r.status < 300 && r.verified),
    mode: 'ok',
    secret: undefined,
    down,
    up,
    close: down,
  };
  let server: Server | undefined;

  function handler(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: Received['verified'];
      try {
        verified = receiver.secret ? (new Webhook(receiver.secret).verify(body, req.headers as Record<string, string>) as Received['verified']) : undefined;
      } catch {
        verified = undefined;
      }
      const mode = receiver.mode;
      if (mode === 'hang') {
        receiver.received.push({ path: req.url ?? '', headers: req.headers, body, verified, status: 0 });
        return; // never answers; tms' timeout must give up
      }
      const status = mode === 'ok' ? (verified ? 204 : 401) : mode === 'redirect' ? 307 : 500;
      receiver.received.push({ path: req.url ?? '', headers: req.headers, body, verified, status });
      if (mode === 'redirect') res.setHeader('Location', receiver.url('/elsewhere'));
      res.statusCode = status;
      res.end();
    });
  }

  async function up() {
    server = createServer(handler);
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }

  async function down() {
    const s = server;
    server = undefined;
    if (!s) return;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  await up();
  return receiver;
}

/** Polls `check` until it returns a truthy value or the time is up. */
type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * For the tests that run every route (retry, unknown fields, OpenAPI conformance): an endpoint of
 * the project that nothing listens behind (port 9 of loopback: every attempt is refused at once,
 * nothing leaves the machine), with one failed delivery to replay. The app must allow private targets.
 */
export async function webhookFixture(
  app: { admin(method: string, path: string, body?: unknown): Promise<Response>; runtime: { deps: { sql: import('../../core/db/client.ts').Sql } } },
  projectId: string,
): Promise<{ webhookId: string; deliveryId: string }> {
  const res = await app.admin('POST', `/projects/${projectId}/webhooks`, { url: 'http://127.0.0.1:9/hook', events: ['cache.rebuilt'] });
  if (res.status !== 201) throw new Error(`webhook fixture: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  const [delivery] = await app.runtime.deps.sql<{ id: string }[]>`
    insert into webhook_deliveries (endpoint_id, project_id, message_id, event_type, body, status, attempts, next_attempt_at, last_error)
    values (${id}, ${projectId}, 'msg_fixture', 'cache.rebuilt', '{"type":"cache.rebuilt","timestamp":"2026-01-01T00:00:00.000Z","data":{}}',
            'failed', 1, null, 'connection refused')
    returning id`;
  return { webhookId: id, deliveryId: delivery!.id };
}

/** An app's settings for webhook tests: receivers on loopback allowed, quick retries, windows and polls. */
export const QUICK_WEBHOOKS_ENV = {
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOKS_RETRY_BASE_MS: '10',
  WEBHOOKS_DEBOUNCE_MS: '300',
  WEBHOOKS_POLL_MS: '50',
  WEBHOOKS_TIMEOUT_MS: '1000',
  AUTO_REBUILD_DEBOUNCE_MS: '600000',
} as const;

/** A list for the receivers a test starts: each is closed after its test. */
export function receiversClosedAfterEach(): WebhookReceiver[] {
  const receivers: WebhookReceiver[] = [];
  afterEach(async () => {
    for (const r of receivers.splice(0)) await r.close();
  });
  return receivers;
}

/** A response's JSON when its status is `status`; otherwise an error with the status and the body. */
export async function jsonAnswer(res: Response, status = 200): Promise<unknown> {
  if (res.status !== status) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

/** A receiver started (closed after the test by `receivers`) and registered as the project's endpoint for `events`, holding its secret. */
export async function registeredReceiver(
  app: { admin(method: string, path: string, body?: unknown): Promise<Response> },
  projectId: string,
  events: readonly string[],
  receivers: WebhookReceiver[],
): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const created = (await jsonAnswer(await app.admin('POST', `/projects/${projectId}/webhooks`, { url: receiver.url(), events }), 201)) as { secret: string };
  receiver.secret = created.secret;
  return receiver;
}
