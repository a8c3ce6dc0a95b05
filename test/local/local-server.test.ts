// `npm start` as a newcomer runs it: a real process on embedded defaults, with nothing configured
// but a data dir and a port. Checks start-up, the generated admin token, and persistence.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
let dataDir: string;
const children: ChildProcess[] = [];

async function start(): Promise<{ url: string; output: () => string; stop(): Promise<void> }> {
  const env = { ...process.env, TMS_DATA_DIR: dataDir, PORT: '0' } as Record<string, string | undefined>;
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'TMS_ADMIN_TOKEN', 'UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN', 'S3_BUCKET', 'SQS_QUEUE_URL']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'functions/local.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 30 s:\n${out}`)), 30_000);
    const check = () => {
      const m = /"msg":"tms listening","url":"([^"]+)"/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
  });
  return {
    url,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('npm start on embedded defaults', () => {
  it('answers /health within 30 s, prints a generated admin token once, and keeps state across restarts', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tms-local-'));
    const first = await start();
    const health = await fetch(`${first.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', db: 'ok', redis: 'ok' });
    expect(health.headers.get('x-request-id')).toBeTruthy();

    const token = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
    expect(token).toMatch(/^adm_/);
    expect(first.output()).toContain(token);

    const admin = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const account = await (await fetch(`${first.url}/admin/v1/accounts`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Local', plan: 'free' }) })).json();
    const project = await (await fetch(`${first.url}/admin/v1/accounts/${account.id}/projects`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'App' }) })).json();
    const apiKey = project.api_key.key as string;
    const created = await fetch(`${first.url}/v1/keys`, { method: 'POST', headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify({ key: 'home.title', group_name: 'home' }) });
    expect(created.status).toBe(201);
    // The request log: one JSON line per request, never the API key or the admin token.
    expect(first.output()).toMatch(/"msg":"request","method":"POST","route":"\/v1\/keys"/);
    expect(first.output().split(apiKey).length).toBe(1);
    await first.stop();

    const second = await start();
    expect(second.output()).not.toContain('generated');
    // The token's value is printed once, when generated; afterwards only where it is kept.
    await vi.waitFor(() => expect(second.output()).toContain(`Admin token: in ${join(dataDir, 'admin-token')}`));
    expect(second.output()).not.toContain(token);
    const list = await (await fetch(`${second.url}/v1/keys`, { headers: { 'X-API-Key': apiKey } })).json();
    expect(list.keys.map((k: { key: string }) => k.key)).toEqual(['home.title']);
    await second.stop();
  }, 90_000);
});
