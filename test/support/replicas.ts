// Two or more tms processes ("replicas") on one real Postgres, one Redis and one
// shared object store, each with its own Deps and app, as `npm start` behind a load balancer.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../core/config.ts';
import { createRuntime, type Runtime } from '../../core/create-runtime.ts';
import { silentLogger, type Logger } from '../../core/log.ts';
import { createApi, type Api } from '../../functions/http/create-api.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';
import { createTestDatabase } from './test-database.ts';
import { adminCallerOf, callerOf } from './test-app.ts';

export const ADMIN_TOKEN = 'replicas-admin-token-0123456789';

export type Replica = {
  app: Api;
  runtime: Runtime;
  call(apiKey: string | undefined, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  admin(method: string, path: string, body?: unknown): Promise<Response>;
};

export type Replicas = { replicas: Replica[]; dataDir: string; close(): Promise<void> };

export async function startReplicas(count: number, env: Record<string, string> = {}, log: Logger = silentLogger): Promise<Replicas> {
  const db = await createTestDatabase();
  if (db.kind !== 'postgres') throw new Error('run with DATABASE_URL: replicas need a real Postgres');
  const dataDir = await mkdtemp(join(tmpdir(), 'tms-replicas-'));
  const prefix = `tms-test:${randomBytes(6).toString('hex')}:`;
  const replicas: Replica[] = [];
  for (let i = 0; i < count; i++) {
    const config = loadConfig({
      TMS_DATA_DIR: dataDir,
      TMS_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_REQUESTS: 'false',
      DATABASE_URL: db.url,
      DATABASE_POOL_MAX: '6',
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      ...env,
    });
    const runtime = await createRuntime(config, { log, counterKeyPrefix: prefix });
    const app = createApi(runtime.deps, allRouteGroups, { openapi: false });
    const call = callerOf(app);
    const admin = adminCallerOf(call, ADMIN_TOKEN);
    replicas.push({ app, runtime, call, admin });
  }
  return {
    replicas,
    dataDir,
    async close() {
      for (const r of replicas) await r.runtime.close().catch(() => {});
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function newProject(r: Replica, plan = 'business') {
  const account = (await (await r.admin('POST', '/accounts', { name: `acct-${randomBytes(3).toString('hex')}`, plan })).json()) as { id: string };
  const res = await r.admin('POST', `/accounts/${account.id}/projects`, { name: 'project' });
  if (res.status !== 201) throw new Error(`project creation failed: ${res.status} ${await res.text()}`);
  const project = (await res.json()) as { id: string; api_key: { id: string; key: string } };
  return { accountId: account.id, projectId: project.id, apiKey: project.api_key.key, apiKeyId: project.api_key.id };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}
