// `npm start` as a newcomer runs it: a real process on embedded defaults, with nothing configured
// but a data dir and a port. Checks start-up, the generated admin token, and persistence.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killLocalServers, startLocalServer } from './local-server-process.ts';

let dataDir: string;

afterAll(async () => {
  killLocalServers();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('npm start on embedded defaults', () => {
  it('answers /health, prints the generated admin token once and then only its path, and keeps state across restarts', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tms-local-'));
    const tokenPath = join(dataDir, 'admin-token');
    const first = await startLocalServer({ TMS_DATA_DIR: dataDir, PORT: '0' });
    const health = await fetch(`${first.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', db: 'ok', redis: 'ok' });
    expect(health.headers.get('x-request-id')).toBeTruthy();

    const token = (await readFile(tokenPath, 'utf8')).trim();
    expect(token).toMatch(/^adm_/);
    // Generated now: its value is printed, with where it is kept.
    await first.waitForOutput(/Admin token \(generated now/);
    expect(first.output()).toContain(token);
    expect(first.output()).toContain(tokenPath);

    const admin = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const account = await (await fetch(`${first.url}/admin/v1/accounts`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Local', plan: 'free' }) })).json();
    const project = await (await fetch(`${first.url}/admin/v1/accounts/${account.id}/projects`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'App' }) })).json();
    const apiKey = project.api_key.key as string;
    const created = await fetch(`${first.url}/v1/keys`, { method: 'POST', headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify({ key: 'home.title', group_name: 'home' }) });
    expect(created.status).toBe(201);
    // The request log: one JSON line per request, never the API key or the admin token.
    expect(first.output()).toMatch(/"msg":"request","method":"POST","route":"\/v1\/keys"/);
    expect(first.output().split(apiKey).length).toBe(1);
    expect(first.output().split(token).length).toBe(2); // the one banner line, nothing else
    await first.stop();

    // Every later start: where the token is, never its value.
    const second = await startLocalServer({ TMS_DATA_DIR: dataDir, PORT: '0' });
    await second.waitForOutput(/Admin token: in /);
    expect(second.output()).toContain(`Admin token: in ${tokenPath}`);
    expect(second.output()).not.toContain(token);
    expect(second.output()).not.toContain('generated');
    const list = await (await fetch(`${second.url}/v1/keys`, { headers: { 'X-API-Key': apiKey } })).json();
    expect(list.keys.map((k: { key: string }) => k.key)).toEqual(['home.title']);
    await second.stop();
  }, 90_000);

  it('prints where the admin token comes from, never the token nor a path, when TMS_ADMIN_TOKEN sets it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tms-local-env-'));
    try {
      const server = await startLocalServer({ TMS_DATA_DIR: dir, PORT: '0', TMS_ADMIN_TOKEN: 'adm_chosen_by_the_operator' });
      const accounts = await fetch(`${server.url}/admin/v1/accounts`, {
        method: 'POST',
        headers: { Authorization: 'Bearer adm_chosen_by_the_operator', 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Ops', plan: 'free' }),
      });
      expect(accounts.status).toBe(201);
      await server.stop();
      expect(server.output()).not.toContain('adm_chosen_by_the_operator');
      expect(server.output()).toContain(`tms is running at ${server.url}`);
      expect(server.output()).toContain(`Portal: ${server.url}/portal`);
      expect(server.output()).toContain('Admin token: from TMS_ADMIN_TOKEN');
      expect(server.output()).not.toContain('admin-token');
      await expect(readFile(join(dir, 'admin-token'), 'utf8')).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
