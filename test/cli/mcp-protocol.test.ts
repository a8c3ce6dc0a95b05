// `tms mcp`'s JSON-RPC framing on stdio (cli/src/commands/mcp-stdio.ts), driven by raw lines as any
// MCP client may send them.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestProject } from '../support/test-app.ts';
import { BIN } from './support/run-tms.ts';

let t: Awaited<ReturnType<typeof startTestApp>>;
let server: ServerType;
let base: string;
let p: TestProject;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  t = await startTestApp();
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  p = await t.newProject('team');
  for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill();
  await new Promise((resolve) => server.close(resolve));
  await t?.close();
});

/** `tms mcp` as a child process, with its stdout read as JSON-RPC lines. */
function startMcp() {
  const child = spawn(process.execPath, [BIN, 'mcp', '--server', base], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMS_API_KEY: p.apiKey },
  }) as ChildProcessWithoutNullStreams;
  children.push(child);
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const messages = () => out.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    child,
    exit,
    messages,
    send: (m: unknown) => child.stdin.write((typeof m === 'string' ? m : JSON.stringify(m)) + '\n'),
    async waitFor(pred: (m: Record<string, unknown>) => boolean, ms = 8000) {
      for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
        const hit = messages().find(pred);
        if (hit) return hit;
      }
      return undefined;
    },
  };
}

async function initialized(s: ReturnType<typeof startMcp>, protocolVersion = '2025-06-18') {
  s.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'review', version: '1' } } });
  const answer = await s.waitFor((m) => m.id === 0);
  expect(answer).toMatchObject({ result: { protocolVersion } });
  s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

describe('tms mcp: JSON-RPC framing', () => {
  it('answers a line that is not JSON with a -32700 parse error (id null), and keeps serving', async () => {
    const s = startMcp();
    await initialized(s);
    s.send('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"');
    s.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(await s.waitFor((m) => m.id === 2)).toBeDefined();
    expect(s.messages().find((m) => m.id === null)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    s.child.stdin.end();
    await s.exit;
  }, 30_000);

  it('answers a JSON-RPC batch under protocol 2025-03-26 (which requires receiving batches)', async () => {
    const s = startMcp();
    await initialized(s, '2025-03-26');
    s.send([{ jsonrpc: '2.0', id: 5, method: 'ping' }, { jsonrpc: '2.0', id: 6, method: 'tools/list' }, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }, { id: 8, nonsense: true }]);
    s.send({ jsonrpc: '2.0', id: 7, method: 'ping' });
    expect(await s.waitFor((m) => m.id === 7)).toBeDefined();
    // One line, an array: an answer for each request (none for the notification), and an
    // Invalid Request for the element that is no message, in any order (JSON-RPC 2.0, "Batch").
    const batch = (await s.waitFor((m) => Array.isArray(m))) as unknown as { id: unknown; result?: unknown; error?: { code: number } }[];
    expect(batch.map((m) => m.id).sort()).toEqual([5, 6, 8]);
    expect(batch.find((m) => m.id === 6)?.result).toMatchObject({ tools: expect.any(Array) });
    expect(batch.find((m) => m.id === 8)?.error?.code).toBe(-32600);
    // An empty batch is one Invalid Request.
    s.send([]);
    s.send({ jsonrpc: '2.0', id: 9, method: 'ping' });
    expect(await s.waitFor((m) => m.id === 9)).toBeDefined();
    expect(s.messages().filter((m) => m.id === null && (m.error as { code?: number } | undefined)?.code === -32600)).toHaveLength(1);
    s.child.stdin.end();
    await s.exit;
  }, 30_000);

  it('answers a tool call that is in flight when the client closes stdin, before exiting', async () => {
    const s = startMcp();
    await initialized(s);
    // `printf '...' | tms mcp` or a client that closes its end after its last request.
    s.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'create_key', arguments: { key: 'home.closing' } } });
    s.child.stdin.end();
    expect(await s.exit).toBe(0);
    // The key was created on the server...
    const keys = (await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()) as { keys: { key: string }[] };
    expect(keys.keys.map((k) => k.key)).toContain('home.closing');
    // ...but its answer must not be lost.
    expect(s.messages().find((m) => m.id === 3)).toMatchObject({ result: { content: [{ type: 'text' }] } });
  }, 30_000);
});
