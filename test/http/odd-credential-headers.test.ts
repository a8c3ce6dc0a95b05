// Odd credential headers over a real socket (UTF-8 and latin1 keys, 15 KB keys and tokens, repeated X-API-Key, X-Project-Id, Origin and Authorization, empty keys, tabs) are a 4xx in the error envelope, never a 5xx.
import { connect } from 'node:net';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '@hono/node-server';
import { startTestApp, type TestProject } from '../support/test-app.ts';
import { EDGE_SERVER_OPTIONS, hardenNodeServer } from '../../functions/http/node-server-edge.ts';

function raw(port: number, head: Buffer): Promise<{ status: number; body: string; head: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [h, ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(h!.split(' ')[1]), head: h!, body: rest.join('\r\n\r\n') });
    });
    socket.on('error', reject);
    socket.write(head);
  });
}

const request = (path: string, lines: (string | Buffer)[]) =>
  Buffer.concat([
    Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`),
    ...lines.flatMap((l) => [typeof l === 'string' ? Buffer.from(l, 'utf8') : l, Buffer.from('\r\n')]),
    Buffer.from('\r\n'),
  ]);

describe('odd X-API-Key, X-Project-Id, Origin and Authorization headers', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let server: Server;
  let port: number;
  let p: TestProject;
  let delivery: string;
  beforeAll(async () => {
    t = await startTestApp();
    p = await t.newProject('team');
    delivery = (await (await t.admin('POST', `/projects/${p.projectId}/api-keys`, { kind: 'delivery', allowed_origins: ['https://app.example'] })).json()).key;
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1', serverOptions: EDGE_SERVER_OPTIONS }) as Server;
    hardenNodeServer(server, { requestTimeoutMs: 5000, headersTimeoutMs: 5000 });
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await t?.close();
  });

  it('every variant is a 4xx with {"detail": …}', async () => {
    const cases: Record<string, [string, (string | Buffer)[]]> = {
      'utf-8 key': ['/v1/keys', ['X-API-Key: key_live_' + 'ä'.repeat(40)]],
      'latin1 bytes': ['/v1/keys', [Buffer.concat([Buffer.from('X-API-Key: key_live_'), Buffer.alloc(40, 0xe9)])]],
      'long key': ['/v1/keys', ['X-API-Key: key_live_' + 'a'.repeat(15000)]],
      'repeated valid key': ['/v1/keys', [`X-API-Key: ${p.apiKey}`, `X-API-Key: ${p.apiKey}`]],
      'valid key then junk': ['/v1/keys', [`X-API-Key: ${p.apiKey}`, 'X-API-Key: x']],
      'empty key': ['/v1/keys', ['X-API-Key:']],
      'tab inside': ['/v1/keys', [`X-API-Key: ${p.apiKey.slice(0, 20)}\t${p.apiKey.slice(20)}`]],
      'repeated project id': ['/v1/keys', [`X-API-Key: ${p.apiKey}`, `X-Project-Id: ${p.projectId}`, `X-Project-Id: ${p.projectId}`]],
      'utf-8 project id': ['/v1/keys', [`X-API-Key: ${p.apiKey}`, 'X-Project-Id: ü']],
      'utf-8 origin': ['/v1/cached/manifest', [`X-API-Key: ${delivery}`, 'Origin: https://äpp.example']],
      'repeated origin': ['/v1/cached/manifest', [`X-API-Key: ${delivery}`, 'Origin: https://app.example', 'Origin: https://app.example']],
      'utf-8 bearer': ['/admin/v1/accounts', ['Authorization: Bearer ü']],
      'bearer only': ['/admin/v1/accounts', ['Authorization: Bearer']],
      'long bearer': ['/admin/v1/accounts', ['Authorization: Bearer ' + 'x'.repeat(15000)]],
      'repeated authorization': ['/admin/v1/accounts', ['Authorization: Bearer test-admin-token-0123456789', 'Authorization: Bearer test-admin-token-0123456789']],
    };
    const seen: Record<string, number> = {};
    for (const [name, [path, lines]] of Object.entries(cases)) {
      const res = await raw(port, request(path, lines));
      seen[name] = res.status;
      expect(res.status, name).toBeGreaterThanOrEqual(400);
      expect(res.status, name).toBeLessThan(500);
      expect(JSON.parse(res.body), name).toHaveProperty('detail');
    }
  });
});
