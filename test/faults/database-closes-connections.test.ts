// A Postgres address that accepts TCP connections and closes them cleanly (FIN, no Postgres error):
// what docker-proxy does for a stopped container, HAProxy or a cloud load balancer with no healthy
// backend, or a DATABASE_URL that names some other service (an HTTP server answers and hangs up).
// postgres.js 3.4.9 then reconnects at once, forever, and never settles the query
// (porsager/postgres#1193): every call hung and the process spun a core. Now such a close is a
// connection error like a refused connection: the query fails at once, the service answers 500,
// and it serves again as soon as the address leads to Postgres again.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createSql, isConnectionError } from '../../core/db/client.ts';
import { createMemoryLogger } from '../../core/log.ts';
import { startProxiedDatabase } from '../support/proxied-database.ts';
import { startTestApp } from '../support/test-app.ts';

type Closer = { port: number; accepted: () => number; close(): Promise<void> };

/** Accepts and hangs up: at once (`fin`), or after answering the first bytes as an HTTP server would. */
async function startHangingUpServer(kind: 'fin' | 'http'): Promise<Closer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    if (kind === 'fin') socket.end();
    else socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Settles within `ms` or says it hung (the bug: a promise that never settles). */
async function settleWithin<T>(ms: number, work: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown } | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), ms)));
  try {
    return await Promise.race([work.then((value) => ({ ok: true as const, value }), (error) => ({ ok: false as const, error })), hung]);
  } finally {
    clearTimeout(timer);
  }
}

const servers: Closer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

describe('a database address that hangs up', () => {
  for (const kind of ['fin', 'http'] as const) {
    it(`fails the query at once, as a connection error, without a reconnect storm (${kind})`, async () => {
      const server = await startHangingUpServer(kind);
      servers.push(server);
      const sql = createSql(`postgres://tms@127.0.0.1:${server.port}/tms`, { max: 2, prepare: true, connectTimeoutSeconds: 5 });
      try {
        const started = performance.now();
        const outcome = await settleWithin(3_000, sql`select 1`);
        expect(outcome).not.toBe('hung');
        expect(outcome).toMatchObject({ ok: false });
        expect(isConnectionError((outcome as { error: unknown }).error)).toBe(true);
        expect(performance.now() - started).toBeLessThan(2_000);
        // A transaction's first statement too (migrations, every write).
        const begun = await settleWithin(3_000, sql.begin((tx) => tx`select 1`));
        expect(begun).toMatchObject({ ok: false });
        // One connection per attempt, not thousands a second.
        expect(server.accepted()).toBeLessThan(20);
      } finally {
        await sql.end({ timeout: 0 });
      }
    });
  }

  it('the service answers 500 and /health 503 while its database address hangs up, and serves again after', async () => {
    const db = await startProxiedDatabase();
    const log = createMemoryLogger();
    const app = await startTestApp({ log, env: db.env });
    try {
      const p = await app.newProject('team');
      expect((await app.call(p.apiKey, 'GET', '/v1/keys')).status).toBe(200);
      // The proxy goes, and something that accepts and hangs up takes its port.
      await db.proxy.cut();
      const accepted = new Set<Socket>();
      const closer = createServer((socket) => {
        accepted.add(socket);
        socket.on('error', () => {});
        socket.end();
      });
      await new Promise<void>((resolve) => closer.listen(db.proxy.port, '127.0.0.1', resolve));
      try {
        const started = performance.now();
        const res = await settleWithin(5_000, Promise.resolve(app.call(p.apiKey, 'POST', '/v1/keys', { key: 'during.outage' })));
        expect(res).not.toBe('hung');
        const answered = (res as { ok: true; value: Response }).value;
        expect(answered.status).toBe(500);
        expect(await answered.json()).toEqual({ detail: expect.stringContaining('dependency is unavailable') });
        expect(performance.now() - started).toBeLessThan(3_000);
        const health = await settleWithin(5_000, Promise.resolve(app.app.request('/health')));
        expect((health as { ok: true; value: Response }).value.status).toBe(503);
      } finally {
        for (const socket of accepted) socket.destroy();
        await new Promise<void>((resolve) => closer.close(() => resolve()));
      }
      await db.proxy.restore();
      const deadline = Date.now() + 5_000;
      let status = 0;
      while (Date.now() < deadline) {
        status = (await app.call(p.apiKey, 'POST', '/v1/keys', { key: 'after.outage' })).status;
        if (status === 201) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(201);
    } finally {
      await app.close();
      await db.close();
    }
  }, 60_000);
});
