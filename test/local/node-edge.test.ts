// The self-hosted server's edge: answers Node's parser gives before the app (an over-long header
// block, a malformed request) carry the error envelope, and a client that never finishes its
// request is answered 408 and let go at the deadline.
import { connect, type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_SERVER_OPTIONS, hardenNodeServer } from '../../functions/http/node-server-edge.ts';
import { useTestApp } from '../support/test-app.ts';

const t = useTestApp();
let server: Server;
let port: number;

beforeAll(async () => {
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1', serverOptions: EDGE_SERVER_OPTIONS }) as Server;
  hardenNodeServer(server, { requestTimeoutMs: 1500, headersTimeoutMs: 1000 });
  await new Promise<void>((r) => server.once('listening', () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

/** Sends raw bytes, returns what the server answered by the time it closed the connection. */
function raw(request: string, options: { keepOpen?: boolean } = {}): Promise<{ text: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (d) => (text += d));
    socket.on('close', () => resolve({ text, ms: performance.now() - started }));
    socket.on('error', reject);
    if (!options.keepOpen) setTimeout(() => socket.end(), 5_000);
  });
}

const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));

describe('the HTTP edge of npm start', () => {
  it('an over-long header block: 431 in the envelope', async () => {
    const { text } = await raw(`GET /v1/keys?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(text).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(text)).toEqual({ detail: expect.stringMatching(/too large/) });
  });

  it('a malformed request: 400 in the envelope', async () => {
    const { text } = await raw('GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(text)).toEqual({ detail: 'Malformed HTTP request' });
  });

  it('a body that never ends: 408 at the request deadline, connection closed', async () => {
    const { text, ms } = await raw('PUT /v1/keys/x/translations/de HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"val\r\n', { keepOpen: true });
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(text)).toEqual({ detail: expect.stringMatching(/timed out/) });
    expect(ms).toBeLessThan(4_000);
  });
});
