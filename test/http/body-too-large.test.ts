// A body over the limit is answered 413 in the envelope, and the client can read that answer: the
// self-hosted server (functions/local.ts's serve setup, hardened by node-server-edge.ts) keeps reading
// and discarding the rest of the body for a bounded while before it lets the connection go, since
// closing a socket with unread bytes resets it, and a client still writing then sees EPIPE instead.
import { connect, type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_SERVER_OPTIONS, hardenNodeServer } from '../../functions/http/node-server-edge.ts';
import { useTestApp, type TestProject } from '../support/test-app.ts';

const t = useTestApp();
let server: Server;
let port: number;
let p: TestProject;
const MiB = 1024 * 1024;

beforeAll(async () => {
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1', serverOptions: EDGE_SERVER_OPTIONS }) as Server;
  hardenNodeServer(server, { requestTimeoutMs: 60_000, headersTimeoutMs: 10_000 });
  await new Promise<void>((r) => server.once('listening', () => r()));
  port = (server.address() as AddressInfo).port;
  p = await t.newProject('team');
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

type Sent = { status: number; body: unknown; writeError?: string; bytesWritten: number };

/**
 * Sends a PUT with `size` bytes of body the way simple clients do (Python's requests, many SDKs):
 * the whole body first, then the answer is read; a failed write ends the attempt, as it ends theirs.
 * `pauseEveryBytes` makes it a slow sender (a short pause after every so many bytes).
 */
function sendWholeBodyThenRead(
  size: number,
  options: { chunked?: boolean; pauseEveryBytes?: number; path?: string; port?: number } = {},
): Promise<Sent> {
  const path = options.path ?? '/v1/keys/00000000-0000-4000-8000-000000000000/translations/de';
  return new Promise((resolve) => {
    const socket = connect(options.port ?? port, '127.0.0.1');
    socket.pause(); // nothing is read until the body is written
    const head =
      `PUT ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${p.apiKey}\r\nContent-Type: application/json\r\n` +
      (options.chunked ? 'Transfer-Encoding: chunked\r\n\r\n' : `Content-Length: ${size}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    let writeError: string | undefined;
    const finish = () => {
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('end', () => socket.destroy());
      socket.on('close', () => {
        const status = Number(text.slice(9, 12));
        const rawBody = text.slice(text.indexOf('\r\n\r\n') + 4);
        let body: unknown = rawBody;
        try {
          body = JSON.parse(rawBody);
        } catch {}
        resolve({ status, body, bytesWritten: sent, ...(writeError ? { writeError } : {}) });
      });
      socket.resume();
      // Reads what came, then lets go (the server keeps a drained connection alive).
      setTimeout(() => socket.end(), 200);
    };
    socket.on('error', (e: NodeJS.ErrnoException) => {
      writeError ??= e.code ?? e.message;
      finish();
    });
    socket.write(head);
    const pump = async () => {
      while (sent < size && !writeError) {
        const n = Math.min(chunk.length, size - sent);
        const data = options.chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), chunk.subarray(0, n), Buffer.from('\r\n')]) : chunk.subarray(0, n);
        const before = sent;
        sent += n;
        if (!socket.write(data)) await new Promise((r) => socket.once('drain', r));
        if (options.pauseEveryBytes && Math.floor(before / options.pauseEveryBytes) !== Math.floor(sent / options.pauseEveryBytes)) {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      if (writeError) return;
      if (options.chunked) socket.write('0\r\n\r\n');
      finish();
    };
    void pump();
  });
}

const TOO_LARGE = { detail: 'Request body exceeds 1 MiB' };

describe('413 over the body limit, readable by a client that writes its whole body first', () => {
  for (const chunked of [false, true]) {
    const how = chunked ? 'chunked' : 'with Content-Length';
    it(`1.5 MiB, ${how}`, async () => {
      const res = await sendWholeBodyThenRead(1.5 * MiB, { chunked });
      expect(res).toEqual({ status: 413, body: TOO_LARGE, bytesWritten: 1.5 * MiB });
    });
    it(`50 MiB, ${how}`, async () => {
      const res = await sendWholeBodyThenRead(50 * MiB, { chunked });
      expect(res).toEqual({ status: 413, body: TOO_LARGE, bytesWritten: 50 * MiB });
    });
    it(`6 MiB from a slow sender (pauses while the server drains), ${how}`, async () => {
      const res = await sendWholeBodyThenRead(6 * MiB, { chunked, pauseEveryBytes: MiB });
      expect(res).toEqual({ status: 413, body: TOO_LARGE, bytesWritten: 6 * MiB });
    });
  }
});

describe('after a drained 413 the connection stays usable', () => {
  it('a request pipelined behind the too-large body is answered on the same connection', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (d) => (received += d));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
      socket.write(
        `PUT /v1/keys/00000000-0000-4000-8000-000000000000/translations/de HTTP/1.1\r\nHost: x\r\nX-API-Key: ${p.apiKey}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${1.5 * MiB}\r\n\r\n`,
      );
      socket.write(Buffer.alloc(1.5 * MiB, 'a'));
      socket.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    });
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([413, 200]);
  });
});

describe('the drain is bounded', () => {
  it('an import over its 10 MiB limit: 413 naming that limit, readable', async () => {
    const res = await sendWholeBodyThenRead(12 * MiB, { path: '/v1/import/de?format=json' });
    expect(res).toEqual({ status: 413, body: { detail: 'Request body exceeds 10 MiB' }, bytesWritten: 12 * MiB });
  });

  it('a client that reads while it writes (fetch) gets the 413 for 50 MiB too', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/keys/00000000-0000-4000-8000-000000000000/translations/de`, {
      method: 'PUT',
      headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' },
      body: Buffer.alloc(50 * MiB, 'a'),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(TOO_LARGE);
  });

  it('past the bound the connection is cut: the server does not read an endless body', async () => {
    const small = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1', serverOptions: EDGE_SERVER_OPTIONS }) as Server;
    hardenNodeServer(small, { requestTimeoutMs: 60_000, headersTimeoutMs: 10_000, drain: { maxBytes: 2 * MiB, maxMs: 60_000 } });
    await new Promise<void>((r) => small.once('listening', () => r()));
    try {
      const res = await sendWholeBodyThenRead(64 * MiB, { port: (small.address() as AddressInfo).port });
      expect(res.writeError).toMatch(/EPIPE|ECONNRESET/);
      // What the kernel buffers on both sides is a few MiB on loopback; the rest was never read.
      expect(res.bytesWritten).toBeLessThan(32 * MiB);
    } finally {
      small.closeAllConnections();
      await new Promise<void>((r) => small.close(() => r()));
    }
  });
});
