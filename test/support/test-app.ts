// One isolated service per test file: its own database (test-database.ts), counters namespace and
// app, called in process through app.request() exactly as HTTP would.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../../core/config.ts';
import { createRuntime, type Runtime } from '../../core/create-runtime.ts';
import { silentLogger, type Logger } from '../../core/log.ts';
import type { Plan } from '../../core/accounts/plans.ts';
import { createApi, type Api } from '../../functions/http/create-api.ts';
import { allRouteGroups } from '../../functions/route-groups.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export type TestProject = { accountId: string; projectId: string; apiKey: string; apiKeyId: string };

export type TestApp = {
  app: Api;
  runtime: Runtime;
  /** A request to /admin/v1 with the admin token. */
  admin(method: string, path: string, body?: unknown): Promise<Response>;
  /** A request with an API key (or none), JSON body when given. */
  call(apiKey: string | undefined, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** A fresh account on `plan` with one project and its API key. */
  newProject(plan?: Plan): Promise<TestProject>;
};

/** `call` of TestApp over an app: a request with an API key (or none), JSON body when given. */
export function callerOf(app: Api): TestApp['call'] {
  return async (apiKey, method, path, body, headers = {}) =>
    app.request(path, {
      method,
      headers: {
        ...(apiKey === undefined ? {} : { 'X-API-Key': apiKey }),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      // A string or bytes (a file's) as they are; anything else as JSON.
      ...(body === undefined ? {} : { body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body) }),
    });
}

/** `admin` of TestApp: a request to /admin/v1 with the admin token. */
export function adminCallerOf(call: TestApp['call'], token: string): TestApp['admin'] {
  return (method, path, body) => call(undefined, method, `/admin/v1${path}`, body, { Authorization: `Bearer ${token}` });
}

export type TestAppOptions = { log?: Logger; env?: Record<string, string> };

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp & { close(): Promise<void> }> {
  const db: TestDatabase = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'tms-app-'));
  const config = loadConfig({
    TMS_DATA_DIR: dataDir,
    TMS_ADMIN_TOKEN: ADMIN_TOKEN,
    LOG_REQUESTS: options.log ? 'true' : 'false',
    ...(db.kind === 'postgres' ? { DATABASE_URL: db.url, DATABASE_POOL_MAX: '8' } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...options.env,
  });
  const runtime = await createRuntime(config, {
    log: options.log ?? silentLogger,
    ...(db.kind === 'embedded' ? { embeddedData: db.tarball } : {}),
    counterKeyPrefix: `tms-test:${randomBytes(6).toString('hex')}:`,
  });
  const app = createApi(runtime.deps, allRouteGroups, { openapi: true });

  const call = callerOf(app);
  const admin = adminCallerOf(call, ADMIN_TOKEN);

  const newProject = async (plan: Plan = 'free'): Promise<TestProject> => {
    const account = (await (await admin('POST', '/accounts', { name: `acct-${randomBytes(3).toString('hex')}`, plan })).json()) as { id: string };
    const res = await admin('POST', `/accounts/${account.id}/projects`, { name: 'project' });
    if (res.status !== 201) throw new Error(`project creation failed: ${res.status} ${await res.text()}`);
    const project = (await res.json()) as { id: string; api_key: { id: string; key: string } };
    return { accountId: account.id, projectId: project.id, apiKey: project.api_key.key, apiKeyId: project.api_key.id };
  };

  return {
    app,
    runtime,
    admin,
    call,
    newProject,
    async close() {
      await runtime.close();
      if (db.kind === 'postgres') await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Registers beforeAll/afterAll for a file and returns a handle whose fields are ready inside tests.
 */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  let current: (TestApp & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    current = await startTestApp(options);
  });
  afterAll(async () => {
    await current?.close();
  });
  const ready = () => {
    if (!current) throw new Error('test app not started (use inside tests)');
    return current;
  };
  return {
    get app() {
      return ready().app;
    },
    get runtime() {
      return ready().runtime;
    },
    admin: (...args) => ready().admin(...args),
    call: (...args) => ready().call(...args),
    newProject: (...args) => ready().newProject(...args),
  };
}
