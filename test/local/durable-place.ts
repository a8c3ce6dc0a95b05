// What the crash tests share: a data dir (and with DATABASE_URL a database of its own) that outlives
// the server's restarts, a business-plan project made through the admin API, and calls with its key.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { killLocalServers, type LocalServer } from './local-server-process.ts';

export const ADMIN_TOKEN = 'adm_durability_test_token_0123';

export type Project = { apiKey: string; projectId: string };

const dirs: string[] = [];
const databases: TestDatabase[] = [];

/** For afterAll: kills what still runs, removes the data dirs, drops the databases. */
export async function cleanUpPlaces(): Promise<void> {
  killLocalServers();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  for (const db of databases.splice(0)) if (db.kind === 'postgres') await db.drop();
}

/** The environment of a server whose data survives its restarts. */
export async function place(): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-durable-'));
  dirs.push(dir);
  const env: Record<string, string> = { TMS_DATA_DIR: dir, PORT: '0', TMS_ADMIN_TOKEN: ADMIN_TOKEN, LOG_REQUESTS: 'false' };
  if (process.env.DATABASE_URL) {
    const db = await createTestDatabase();
    databases.push(db);
    if (db.kind === 'postgres') env.DATABASE_URL = db.url;
  }
  return env;
}

export function call(server: LocalServer, p: Project, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { 'X-API-Key': p.apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

/** A business-plan project with language de and `values` approved values imported (none: no import). */
export async function newProject(server: LocalServer, values = 1): Promise<Project> {
  const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
  const account = await (await fetch(`${server.url}/admin/v1/accounts`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Durable', plan: 'business' }) })).json();
  const project = await (await fetch(`${server.url}/admin/v1/accounts/${account.id}/projects`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'App' }) })).json();
  const p = { apiKey: project.api_key.key as string, projectId: project.id as string };
  expect((await call(server, p, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
  if (values > 0) {
    const file = Object.fromEntries(Array.from({ length: values }, (_, i) => [`group${i % 50}.key${i}`, `Wert ${i}`]));
    expect((await call(server, p, 'POST', '/v1/import/de?status=approved', JSON.stringify(file))).status).toBe(200);
  }
  return p;
}
