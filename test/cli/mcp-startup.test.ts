// How `tms mcp` starts (which server, which config, which key), and what it leaves on stdout.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestProject } from '../support/test-app.ts';
import { BIN, runTms } from './support/run-tms.ts';

let t: Awaited<ReturnType<typeof startTestApp>>;
let server: ServerType;
let base: string;
let p: TestProject;
const children: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  p = await t.newProject('team');
  expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  await new Promise((resolve) => server.close(resolve));
  await t?.close();
});

async function repoWithConfig(project: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-review-mcp-'));
  dirs.push(dir);
  await writeFile(join(dir, 'tms.config.json'), JSON.stringify({ server: base, sourceLanguage: 'en', files: [{ path: 'locales/{language}.json', format: 'json' }], project }));
  return dir;
}

function startMcp(args: string[], env: Record<string, string>, cwd: string) {
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
    err: () => err,
    send: (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n'),
    async waitFor(pred: (m: Record<string, unknown>) => boolean, ms = 8000) {
      for (const until = Date.now() + ms; Date.now() < until && child.exitCode === null; await new Promise((r) => setTimeout(r, 50))) {
        const hit = messages().find(pred);
        if (hit) return hit;
      }
      return messages().find(pred);
    },
  };
}

describe('tms mcp: startup', () => {
  it("serves a delivery key of the config's own project (run where tms.config.json names the project)", async () => {
    const created = await t.admin('POST', `/projects/${p.projectId}/api-keys`, { kind: 'delivery', name: 'agent' });
    expect(created.status).toBe(201);
    const delivery = ((await created.json()) as { key: string }).key;
    const dir = await repoWithConfig(p.projectId);
    // No --server, no TMS_SERVER: the server is the config's, as docs/cli.md allows.
    const s = startMcp([], { TMS_API_KEY: delivery }, dir);
    s.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'review', version: '1' } } });
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

  it('does not silently ignore --config when TMS_SERVER is set (its project check is skipped)', async () => {
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
