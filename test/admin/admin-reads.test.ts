// What an operator reads through the admin API (accounts, projects, API keys with their names and
// last use), paged; and the unlimited plan a self-hosted server puts its own account on.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { createLastUsedRecorder } from '../../core/auth/last-used.ts';
import { createMemoryLogger } from '../../core/log.ts';
import type { Sql } from '../../core/db/client.ts';

const t = useTestApp();
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function json(res: Response | Promise<Response>, status = 200) {
  const r = await res;
  expect(r.status, await r.clone().text()).toBe(status);
  return r.json();
}

/** Every item of a paged listing, following next_cursor with the given page size. */
async function allPages(path: string, field: string, limit: number) {
  const items: { id: string }[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await json(t.admin('GET', `${path}${query}`));
    expect(page[field].length).toBeLessThanOrEqual(limit);
    items.push(...page[field]);
    cursor = page.next_cursor;
    pages++;
  } while (cursor);
  return { items, pages };
}

describe('admin reads', () => {
  it('gets an account and a project; lists projects of an account; 404 in the envelope for unknown ones', async () => {
    const p = await t.newProject('solo');
    const account = await json(t.admin('GET', `/accounts/${p.accountId}`));
    expect(account).toEqual({ id: p.accountId, name: expect.any(String), plan: 'solo', daily_call_limit: null, translation_unit_allowance: null, created_at: expect.stringMatching(ISO_MS) });
    const second = await json(t.admin('POST', `/accounts/${p.accountId}/projects`, { name: 'Second' }), 201);
    const projects = await json(t.admin('GET', `/accounts/${p.accountId}/projects`));
    expect(projects).toEqual({
      projects: [
        { id: p.projectId, account_id: p.accountId, name: 'project', auto_rebuild: false, fallbacks: {}, source_language: 'en', quality_blocking: [], created_at: expect.stringMatching(ISO_MS) },
        { id: second.id, account_id: p.accountId, name: 'Second', auto_rebuild: false, fallbacks: {}, source_language: 'en', quality_blocking: [], created_at: expect.stringMatching(ISO_MS) },
      ],
      next_cursor: null,
    });
    expect(await json(t.admin('GET', `/projects/${second.id}`))).toEqual(projects.projects[1]);

    const unknown = crypto.randomUUID();
    for (const [path, detail] of [
      [`/accounts/${unknown}`, 'Account not found'],
      [`/accounts/${unknown}/projects`, 'Account not found'],
      [`/projects/${unknown}`, 'Project not found'],
      [`/projects/${unknown}/api-keys`, 'Project not found'],
      [`/api-keys/${unknown}`, 'API key not found'],
    ]) {
      expect(await json(t.admin('GET', path!), 404), path).toEqual({ detail });
    }
    expect((await t.admin('GET', '/accounts/not-a-uuid')).status).toBe(422);
  });

  it('lists accounts a page at a time: every account once, in creation order', async () => {
    for (let i = 0; i < 3; i++) await t.newProject();
    const first = await json(t.admin('GET', '/accounts'));
    expect(first.next_cursor).toBeNull();
    const { items, pages } = await allPages('/accounts', 'accounts', 2);
    expect(items.map((a) => a.id)).toEqual(first.accounts.map((a: { id: string }) => a.id));
    expect(new Set(items.map((a) => a.id)).size).toBe(items.length);
    expect(pages).toBe(Math.ceil(items.length / 2));
    // Rows created within one millisecond are neither skipped nor repeated.
    const sql = t.runtime.deps.sql;
    const close = await sql<{ id: string }[]>`
      insert into accounts (name, plan, created_at)
      select 'same-ms-' || n, 'free', timestamptz '2020-01-01 00:00:00.000001+00' + n * interval '1 microsecond' from generate_series(0, 2) n
      returning id`;
    const paged = await allPages('/accounts', 'accounts', 1);
    expect(paged.items.slice(0, 3).map((a) => a.id)).toEqual(close.map((r) => r.id));
    expect(new Set(paged.items.map((a) => a.id)).size).toBe(paged.items.length);
    expect(paged.items).toHaveLength(items.length + 3);
    const bad = async (query: string) => (await json(t.admin('GET', `/accounts${query}`), 422)).detail[0].loc;
    expect(await bad('?limit=0')).toEqual(['query', 'limit']);
    expect(await bad('?limit=201')).toEqual(['query', 'limit']);
    expect(await bad('?limit=ten')).toEqual(['query', 'limit']);
    expect(await bad('?cursor=bm9wZQ')).toEqual(['query', 'cursor']);
    // Well formed, but no instant (February 30th, hour 25): refused here, never handed to Postgres.
    const forged = (at: string) => Buffer.from(JSON.stringify({ at, id: close[0]!.id })).toString('base64url');
    expect(await bad(`?cursor=${forged('2026-02-30T10:00:00.000000Z')}`)).toEqual(['query', 'cursor']);
    expect(await bad(`?cursor=${forged('2026-02-01T25:00:00.000000Z')}`)).toEqual(['query', 'cursor']);
    expect((await json(t.admin('GET', `/accounts?limit=1&cursor=${forged('2024-02-29T23:59:59.999999Z')}`), 200)).accounts).toHaveLength(1);
  });

  it("lists a project's API keys with name, kind, hint, bindings, last use and revocation; never the key", async () => {
    const p = await t.newProject('team');
    const named = await json(t.admin('POST', `/projects/${p.projectId}/api-keys`, { name: 'CI' }), 201);
    const delivery = await json(t.admin('POST', `/projects/${p.projectId}/api-keys`, { name: 'Web', kind: 'delivery', allowed_languages: ['de'] }), 201);
    const revoked = await json(t.admin('POST', `/projects/${p.projectId}/api-keys`), 201);
    expect((await t.admin('DELETE', `/api-keys/${revoked.id}`)).status).toBe(204);
    const other = await t.newProject('team');

    // Used: the project's first key and the named one. Unused: the delivery key.
    expect((await t.call(p.apiKey, 'GET', '/v1/languages')).status).toBe(200);
    expect((await t.call(named.key, 'GET', '/v1/languages')).status).toBe(200);
    await t.runtime.deps.apiKeys.lastUseSettled();

    const listing = await json(t.admin('GET', `/projects/${p.projectId}/api-keys`));
    expect(listing.next_cursor).toBeNull();
    expect(listing.api_keys.map((k: { id: string }) => k.id)).toEqual([p.apiKeyId, named.id, delivery.id, revoked.id]);
    const [first, ci, web, gone] = listing.api_keys;
    expect(first).toMatchObject({ name: null, kind: 'live', key_hint: `key_live_…${p.apiKey.slice(-4)}`, last_used_at: expect.stringMatching(ISO_MS), revoked_at: null });
    expect(ci).toEqual({
      id: named.id,
      project_id: p.projectId,
      name: 'CI',
      kind: 'live',
      key_hint: `key_live_…${named.key.slice(-4)}`,
      allowed_origins: null,
      allowed_languages: null,
      created_at: named.created_at,
      last_used_at: expect.stringMatching(ISO_MS),
      revoked_at: null,
    });
    expect(web).toMatchObject({ name: 'Web', kind: 'delivery', key_hint: `delivery_…${delivery.key.slice(-4)}`, allowed_languages: ['de'], last_used_at: null });
    expect(gone).toMatchObject({ last_used_at: null, revoked_at: expect.stringMatching(ISO_MS) });
    const text = JSON.stringify(listing);
    for (const key of [p.apiKey, named.key, delivery.key, revoked.key]) expect(text).not.toContain(key.slice(9, 30));
    expect(await json(t.admin('GET', `/api-keys/${delivery.id}`))).toEqual(web);

    // Paged: every key once; another project's keys never.
    const { items } = await allPages(`/projects/${p.projectId}/api-keys`, 'api_keys', 1);
    expect(items.map((k) => k.id)).toEqual(listing.api_keys.map((k: { id: string }) => k.id));
    expect((await json(t.admin('GET', `/projects/${other.projectId}/api-keys`))).api_keys.map((k: { id: string }) => k.id)).toEqual([other.apiKeyId]);
  });
});

describe('last use is recorded without a write per request', () => {
  function fakeSql(fail = false) {
    const writes: unknown[][] = [];
    const sql = ((_strings: TemplateStringsArray, ...values: unknown[]) => {
      writes.push(values);
      return fail ? Promise.reject(new Error('connection refused')) : Promise.resolve([]);
    }) as unknown as Sql;
    return { sql, writes };
  }

  it('writes a key at most once per interval, whatever the traffic; other keys independently', async () => {
    let now = 1_000_000;
    const { sql, writes } = fakeSql();
    const recorder = createLastUsedRecorder({ sql, log: createMemoryLogger(), intervalMs: 60_000, now: () => now });
    for (let i = 0; i < 1000; i++) recorder.touch('key-a');
    recorder.touch('key-b');
    await recorder.settled();
    expect(writes.map((w) => w[0])).toEqual(['key-a', 'key-b']);
    now += 59_999;
    recorder.touch('key-a');
    expect(writes).toHaveLength(2);
    now += 1;
    recorder.touch('key-a');
    await recorder.settled();
    expect(writes.map((w) => w[0])).toEqual(['key-a', 'key-b', 'key-a']);
  });

  it('a failed write is logged, never thrown into the request, and not retried before the interval', async () => {
    const { sql, writes } = fakeSql(true);
    const log = createMemoryLogger();
    const recorder = createLastUsedRecorder({ sql, log, intervalMs: 60_000, now: () => 5 });
    recorder.touch('key-a');
    recorder.touch('key-a');
    await recorder.settled();
    expect(writes).toHaveLength(1);
    expect(log.lines).toMatchObject([{ level: 'warn', msg: 'api key last use not recorded', api_key_id: 'key-a' }]);
  });

  it('in the database, a second process touching the key within the interval changes nothing', async () => {
    const p = await t.newProject();
    const sql = t.runtime.deps.sql;
    const read = async () => (await sql<{ at: Date | null }[]>`select last_used_at as at from api_keys where id = ${p.apiKeyId}`)[0]!.at;
    expect(await read()).toBeNull();
    const a = createLastUsedRecorder({ sql, log: createMemoryLogger() });
    const b = createLastUsedRecorder({ sql, log: createMemoryLogger() });
    a.touch(p.apiKeyId);
    await a.settled();
    const first = await read();
    expect(first).not.toBeNull();
    b.touch(p.apiKeyId);
    await b.settled();
    expect((await read())!.getTime()).toBe(first!.getTime());
  });
});

describe('the unlimited plan', () => {
  it('has no limit on projects, languages, daily calls or translation units, and sends no rate-limit headers', async () => {
    const account = await json(t.admin('POST', '/accounts', { name: 'Self-hosted', plan: 'unlimited' }), 201);
    expect(account.plan).toBe('unlimited');
    let key = '';
    for (let i = 0; i < 4; i++) key = (await json(t.admin('POST', `/accounts/${account.id}/projects`, { name: `p${i}` }), 201)).api_key.key;
    for (const code of ['de', 'fr', 'es']) expect((await t.call(key, 'POST', '/v1/languages', { code })).status).toBe(201);
    const res = await t.call(key, 'GET', '/v1/languages');
    expect(res.status).toBe(200);
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'ratelimit', 'ratelimit-policy']) expect(res.headers.get(header), header).toBeNull();

    const imported = await t.call(key, 'POST', '/v1/import/de?format=json&status=approved', { 'a.one': 'Eins', 'a.two': 'Zwei' });
    expect(imported.status).toBe(200);
    const usage = await json(t.call(key, 'GET', '/v1/usage'));
    expect(usage).toMatchObject({ daily_limit: null, translation_units_allowance: null, translation_units_used: 2 });
    expect(usage.calls_today).toBeGreaterThanOrEqual(5);

    // An admin override still applies on top of it.
    await json(t.admin('PATCH', `/accounts/${account.id}`, { daily_call_limit: 100 }));
    const limited = await t.call(key, 'GET', '/v1/languages');
    expect(limited.headers.get('x-ratelimit-limit')).toBe('100');
  });
});
