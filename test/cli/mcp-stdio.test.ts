// `tms mcp` on stdio, driven by raw lines as any MCP client may send them: how it starts (which
// server, which config, which key), JSON-RPC's framing (cli/src/commands/mcp-stdio.ts), and that
// nothing but protocol reaches stdout.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestProject } from '../support/test-app.ts';
import { BIN, runTms } from './support/run-tms.ts';
import { serveTestApp, type ServedApp } from './support/served-app.ts';

let served: ServedApp;
let t: ServedApp['t'];
let base: string;
let p: TestProject;
const children: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  served = await serveTestApp();
  ({ t, base } = served);
  p = await t.newProject('team');
  for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  await served?.close();
});

async function repoWithConfig(project: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-review-mcp-'));
  dirs.push(dir);
  await writeFile(join(dir, 'tms.config.json'), JSON.stringify({ server: base, sourceLanguage: 'en', files: [{ path: 'locales/{language}.json', format: 'json' }], project }));
  return dir;
}

/** `tms mcp` as a child process, with its stdout read as JSON-RPC lines. */
function startMcp(args: string[], env: Record<string, string>, cwd = tmpdir()) {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } }) as ChildProcessWithoutNullStreams;
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const messages = () => out.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    child,
    exit,
    messages,
    err: () => err,
    send: (m: unknown) => child.stdin.write((typeof m === 'string' ? m : JSON.stringify(m)) + '\n'),
    async waitFor(pred: (m: Record<string, unknown>) => boolean, ms = 8000) {
      for (const until = Date.now() + ms; Date.now() < until && child.exitCode === null; await new Promise((r) => setTimeout(r, 50))) {
        const hit = messages().find(pred);
        if (hit) return hit;
      }
      return messages().find(pred);
    },
  };
}

async function initialized(s: ReturnType<typeof startMcp>, protocolVersion = '2025-06-18') {
  s.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'tms-test', version: '1' } } });
  const answer = await s.waitFor((m) => m.id === 0);
  expect(answer).toMatchObject({ result: { protocolVersion } });
  s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

describe('tms mcp: startup', () => {
  it("serves a delivery key of the config's own project (run where tms.config.json names the project)", async () => {
    const created = await t.admin('POST', `/projects/${p.projectId}/api-keys`, { kind: 'delivery', name: 'agent' });
    expect(created.status).toBe(201);
    const delivery = ((await created.json()) as { key: string }).key;
    const dir = await repoWithConfig(p.projectId);
    // No --server, no TMS_SERVER: the server is the config's, as docs/cli.md allows.
    const s = startMcp([], { TMS_API_KEY: delivery }, dir);
    s.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'tms-test', version: '1' } } });
    const answer = await s.waitFor((m) => m.id === 0, 15_000);
    // A delivery key cannot read GET /v1/languages (403): its project is the published manifest's.
    expect(s.err()).not.toMatch(/403/);
    expect(answer).toMatchObject({ result: { serverInfo: { name: 'tms' } } });
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    s.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const tools = (await s.waitFor((m) => m.id === 1)) as { result: { tools: { name: string }[] } } | undefined;
    expect(tools?.result.tools.map((x) => x.name).sort()).toEqual(['get_cached_translations', 'get_manifest']);
    s.child.stdin.end();
    await s.exit;
  }, 40_000);

  it("refuses a delivery key of another project than the config's, once that project has published", async () => {
    const other = await t.newProject('team');
    expect((await t.call(other.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    const key = (await (await t.call(other.apiKey, 'POST', '/v1/keys', { key: 'home.title' })).json()) as { id: string };
    expect((await t.call(other.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'Hallo', status: 'approved' })).status).toBe(200);
    expect((await t.call(other.apiKey, 'POST', '/v1/cache/rebuild')).status).toBe(202);
    for (let i = 0; i < 100 && !((await (await t.call(other.apiKey, 'GET', '/v1/cache/status')).json()) as { ready: boolean }).ready; i++) await new Promise((r) => setTimeout(r, 100));
    const created = await t.admin('POST', `/projects/${other.projectId}/api-keys`, { kind: 'delivery', name: 'agent' });
    const delivery = ((await created.json()) as { key: string }).key;
    const run = await runTms(['mcp'], { cwd: await repoWithConfig(p.projectId), apiKey: delivery });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(`a key of project ${other.projectId}`);
    expect(run.stdout).toBe('');
  }, 40_000);

  it('reads --config with TMS_SERVER set, and its project check refuses another project\'s key (exit 4)', async () => {
    // The config is pinned to another project than the key's: `tms status --config` refuses this (exit 4).
    const other = await t.newProject('team');
    const dir = await repoWithConfig(other.projectId);
    const status = await runTms(['status', '--config', join(dir, 'tms.config.json')], { cwd: tmpdir(), apiKey: p.apiKey, env: { TMS_SERVER: base } });
    expect(status.code).toBe(4);
    // Same key, same --config, same TMS_SERVER, `tms mcp`: the config is never read, so it serves the key's project.
    const s = startMcp(['--config', join(dir, 'tms.config.json')], { TMS_API_KEY: p.apiKey, TMS_SERVER: base }, tmpdir());
    await new Promise((r) => setTimeout(r, 4000));
    s.child.stdin.end();
    // The config is read (TMS_SERVER is its server) and its project check refuses the key, as for status.
    expect(await s.exit).toBe(4);
  }, 40_000);

  it('keeps stdout free of anything but JSON-RPC even when started with --json and failing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tms-review-mcp-'));
    dirs.push(dir);
    // No API key: exit 2 before serving. The MCP client reads stdout as protocol messages.
    const run = await runTms(['mcp', '--server', base, '--json'], { cwd: dir });
    expect(run.code).toBe(2);
    // Not the --json error document {"error", "exit_code"}: the MCP client reads stdout as protocol.
    expect(run.stdout).toBe('');
  }, 40_000);
});

describe('tms mcp: JSON-RPC framing', () => {
  it('answers a line that is not JSON with a -32700 parse error (id null), and keeps serving', async () => {
    const s = startMcp(['--server', base], { TMS_API_KEY: p.apiKey });
    await initialized(s);
    s.send('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"');
    s.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(await s.waitFor((m) => m.id === 2)).toBeDefined();
    expect(s.messages().find((m) => m.id === null)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    s.child.stdin.end();
    await s.exit;
  }, 30_000);

  it('answers a JSON-RPC batch under protocol 2025-03-26 (which requires receiving batches)', async () => {
    const s = startMcp(['--server', base], { TMS_API_KEY: p.apiKey });
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
    const s = startMcp(['--server', base], { TMS_API_KEY: p.apiKey });
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
