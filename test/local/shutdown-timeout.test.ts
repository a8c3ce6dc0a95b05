// A SIGTERM whose SHUTDOWN_TIMEOUT_MS runs out while a build is running: the process exits 1, and
// hands its build claim back first, so that the next process (another replica on the same Postgres,
// or the restarted one) builds at once instead of waiting for the claim's 30 s lease to lapse.
// Before, only a second Ctrl-C handed claims back; the timed-out exit left them held.
//
// On real Postgres the claim is read from cache_state right after the exit: a lease still held
// there would keep every other replica off the project. (The embedded database has one worker,
// which clears stale claims when it starts, so there only the exit and the next build are checked.)
// The next build itself gets a loaded machine's time: CI's PostgreSQL run once needed more than 15 s
// for these 20,000 values, and the old test read that as a claim not handed back.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { killLocalServers, startLocalServer, type LocalServer } from './local-server-process.ts';

const ADMIN_TOKEN = 'adm_shutdown_timeout_test_token';
const dirs: string[] = [];
const databases: TestDatabase[] = [];

afterAll(async () => {
  killLocalServers();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  for (const db of databases) if (db.kind === 'postgres') await db.drop();
});

async function place(): Promise<{ env: Record<string, string>; databaseUrl?: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-shutdown-'));
  dirs.push(dir);
  const env: Record<string, string> = { TMS_DATA_DIR: dir, PORT: '0', TMS_ADMIN_TOKEN: ADMIN_TOKEN, LOG_REQUESTS: 'false' };
  if (process.env.DATABASE_URL) {
    const db = await createTestDatabase();
    databases.push(db);
    if (db.kind === 'postgres') env.DATABASE_URL = db.url;
  }
  return { env, databaseUrl: env.DATABASE_URL };
}

async function newProject(server: LocalServer, values: number): Promise<string> {
  const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
  const account = await (await fetch(`${server.url}/admin/v1/accounts`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Stop', plan: 'business' }) })).json();
  const project = await (await fetch(`${server.url}/admin/v1/accounts/${account.id}/projects`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'App' }) })).json();
  const apiKey = project.api_key.key as string;
  const added = await fetch(`${server.url}/v1/languages`, { method: 'POST', headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' }, body: '{"code":"de"}' });
  expect(added.status).toBe(201);
  const file = Object.fromEntries(Array.from({ length: values }, (_, i) => [`group${i % 50}.key${i}`, `Wert ${i}`]));
  const imported = await fetch(`${server.url}/v1/import/de?status=approved`, { method: 'POST', headers: { 'X-API-Key': apiKey }, body: JSON.stringify(file) });
  expect(imported.status).toBe(200);
  return apiKey;
}

describe('npm start: a shutdown that times out', () => {
  it('exits 1 and gives its build claim back: the next process builds at once, not after the lease', async () => {
    const { env, databaseUrl } = await place();
    const first = await startLocalServer({ ...env, SHUTDOWN_TIMEOUT_MS: '50' });
    const apiKey = await newProject(first, 20_000);
    expect((await fetch(`${first.url}/v1/cache/rebuild`, { method: 'POST', headers: { 'X-API-Key': apiKey } })).status).toBe(202);
    await first.waitForOutput(/"msg":"rebuild started"/);
    first.kill('SIGTERM');
    expect(await first.exited()).toBe(1);
    expect(first.output()).toMatch(/Shutdown timed out/);
    expect(first.output()).not.toMatch(/"msg":"cache built"/);

    if (databaseUrl) {
      const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
      try {
        const rows = await sql<{ lease_owner: string | null; lease_until: Date | null; pending: boolean }[]>`
          select lease_owner, lease_until, requested_seq > built_seq as pending from cache_state`;
        // Still pending (nothing was built), and nobody holds it.
        expect(rows).toEqual([{ lease_owner: null, lease_until: null, pending: true }]);
      } finally {
        await sql.end();
      }
    }

    const second = await startLocalServer(env);
    // The lease, had it been kept, runs 30 s; renewed every 10 s, at least 20 s of it were left at the exit.
    await second.waitForOutput(/"msg":"rebuild started"/, 15_000);
    const started = Date.now();
    let status: Record<string, unknown> = {};
    while (Date.now() - started < 90_000) {
      status = await (await fetch(`${second.url}/v1/cache/status`, { headers: { 'X-API-Key': apiKey } })).json();
      // build_state too: a build's files are served (ready) a moment before it releases its claim.
      if (status.ready === true && status.pending === false && status.build_state === 'idle') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toMatchObject({ ready: true, pending: false, build_state: 'idle' });
    expect(second.output()).toMatch(/"msg":"cache built"/);
    await second.stop();
  }, 240_000);
});
