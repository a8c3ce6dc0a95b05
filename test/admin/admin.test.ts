import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../core/auth/api-key-format.ts';
import { useTestApp, ADMIN_TOKEN } from '../support/test-app.ts';

const t = useTestApp();

describe('admin token', () => {
  it('401 without, with a wrong, or with a malformed bearer token', async () => {
    for (const auth of [undefined, 'Bearer wrong', `Basic ${ADMIN_TOKEN}`, `Bearer ${ADMIN_TOKEN} extra`, ADMIN_TOKEN]) {
      const res = await t.call(undefined, 'POST', '/admin/v1/accounts', { name: 'a', plan: 'free' }, auth ? { Authorization: auth } : {});
      expect(res.status, String(auth)).toBe(401);
      expect(await res.json()).toEqual({ detail: 'Invalid admin token' });
    }
  });
  it('takes the scheme in any case (RFC 9110 11.1), the token only as it is', async () => {
    for (const auth of [`bearer ${ADMIN_TOKEN}`, `BEARER ${ADMIN_TOKEN}`, `Bearer  ${ADMIN_TOKEN}`]) {
      const res = await t.call(undefined, 'GET', '/admin/v1/accounts', undefined, { Authorization: auth });
      expect(res.status, auth).toBe(200);
    }
    const res = await t.call(undefined, 'GET', '/admin/v1/accounts', undefined, { Authorization: `bearer ${ADMIN_TOKEN.toUpperCase()}x` });
    expect(res.status).toBe(401);
  });
  it('an API key is not an admin token', async () => {
    const p = await t.newProject();
    const res = await t.call(p.apiKey, 'POST', '/admin/v1/accounts', { name: 'a', plan: 'free' });
    expect(res.status).toBe(401);
  });
});

describe('accounts and projects', () => {
  it('create an account, change its plan, 404 for an unknown one', async () => {
    const res = await t.admin('POST', '/accounts', { name: 'Acme', plan: 'solo' });
    expect(res.status).toBe(201);
    const account = await res.json();
    expect(account).toEqual({ id: expect.any(String), name: 'Acme', plan: 'solo', daily_call_limit: null, translation_unit_allowance: null });
    const patched = await t.admin('PATCH', `/accounts/${account.id}`, { plan: 'business' });
    expect(await patched.json()).toEqual({ ...account, plan: 'business' });
    expect((await t.admin('PATCH', `/accounts/${crypto.randomUUID()}`, { plan: 'free' })).status).toBe(404);
    expect((await t.admin('PATCH', `/accounts/nope`, { plan: 'free' })).status).toBe(422);
    expect((await t.admin('PATCH', `/accounts/${account.id}`, { plan: 'gold' })).status).toBe(422);
    expect((await t.admin('PATCH', `/accounts/${account.id}`, {})).status).toBe(422);
    expect((await t.admin('POST', '/accounts', { name: 'x', plan: 'platinum' })).status).toBe(422);
    expect((await t.admin('POST', '/accounts', { plan: 'free' })).status).toBe(422);
  });

  it('account and project names are trimmed: blank or with control characters is a 422', async () => {
    const account = await (await t.admin('POST', '/accounts', { name: '  Acme  ', plan: 'free' })).json();
    expect(account.name).toBe('Acme');
    for (const name of ['   ', '', 'A\nB']) {
      expect((await t.admin('POST', '/accounts', { name, plan: 'free' })).status, JSON.stringify(name)).toBe(422);
      expect((await t.admin('POST', `/accounts/${account.id}/projects`, { name })).status, JSON.stringify(name)).toBe(422);
    }
    const project = await (await t.admin('POST', `/accounts/${account.id}/projects`, { name: ' App ' })).json();
    expect(project.name).toBe('App');
  });

  it('a project comes with a working API key; the key is stored only as a hash', async () => {
    const account = await (await t.admin('POST', '/accounts', { name: 'A', plan: 'free' })).json();
    const res = await t.admin('POST', `/accounts/${account.id}/projects`, { name: 'Mobile app' });
    expect(res.status).toBe(201);
    const project = await res.json();
    expect(project).toEqual({
      id: expect.any(String),
      account_id: account.id,
      name: 'Mobile app',
      auto_rebuild: false,
      fallbacks: {},
      source_language: 'en',
      quality_blocking: [],
      api_key: { id: expect.any(String), key: expect.stringMatching(/^key_live_[0-9A-Za-z]{40}$/) },
    });
    expect((await t.call(project.api_key.key, 'GET', '/v1/keys')).status).toBe(200);
    const stored = await t.runtime.deps.sql`select * from api_keys where id = ${project.api_key.id}`;
    expect(JSON.stringify(stored)).not.toContain(project.api_key.key);
    expect(stored[0]!.key_hash).toBe(hashApiKey(project.api_key.key));
  });

  it('free allows one project (402 with a detail string); solo three', async () => {
    const free = await (await t.admin('POST', '/accounts', { name: 'F', plan: 'free' })).json();
    expect((await t.admin('POST', `/accounts/${free.id}/projects`, { name: 'one' })).status).toBe(201);
    const second = await t.admin('POST', `/accounts/${free.id}/projects`, { name: 'two' });
    expect(second.status).toBe(402);
    expect((await second.json()).detail).toMatch(/Project limit reached: the free plan allows 1 project/);
    const solo = await (await t.admin('POST', '/accounts', { name: 'S', plan: 'solo' })).json();
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => t.admin('POST', `/accounts/${solo.id}/projects`, { name: `p${i}` })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 402, 402]);
    expect((await t.admin('POST', `/accounts/${crypto.randomUUID()}/projects`, { name: 'x' })).status).toBe(404);
  });

  it('PATCH project sets auto_rebuild', async () => {
    const p = await t.newProject();
    const res = await t.admin('PATCH', `/projects/${p.projectId}`, { auto_rebuild: true });
    expect(await res.json()).toEqual({ id: p.projectId, account_id: p.accountId, name: 'project', auto_rebuild: true, fallbacks: {}, source_language: 'en', quality_blocking: [] });
    expect((await t.admin('PATCH', `/projects/${p.projectId}`, { auto_rebuild: 'yes' })).status).toBe(422);
    expect((await t.admin('PATCH', `/projects/${crypto.randomUUID()}`, { auto_rebuild: false })).status).toBe(404);
  });
});

describe('API keys', () => {
  it('more keys per project; revoking one gives 401 at once and leaves the others working', async () => {
    const p = await t.newProject();
    const res = await t.admin('POST', `/projects/${p.projectId}/api-keys`);
    expect(res.status).toBe(201);
    const extra = await res.json();
    expect(extra).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^key_live_/),
      project_id: p.projectId,
      name: null,
      kind: 'live',
      allowed_origins: null,
      allowed_languages: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect((await t.call(extra.key, 'GET', '/v1/keys')).status).toBe(200); // now cached in process
    expect((await t.admin('DELETE', `/api-keys/${extra.id}`)).status).toBe(204);
    expect((await t.call(extra.key, 'GET', '/v1/keys')).status).toBe(401);
    expect((await t.call(p.apiKey, 'GET', '/v1/keys')).status).toBe(200);
    expect((await t.admin('DELETE', `/api-keys/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await t.admin('POST', `/projects/${crypto.randomUUID()}/api-keys`)).status).toBe(404);
  });
});

describe('restore', () => {
  it('brings a soft-deleted key back with its values; 409 when its name was taken meanwhile', async () => {
    const p = await t.newProject();
    await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' });
    const key = await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'k', group_name: 'g' })).json();
    const sql = t.runtime.deps.sql;
    await sql`insert into translations (key_id, project_id, language, value, status) values (${key.id}, ${p.projectId}, 'de', 'Hallo', 'approved')`;
    await t.call(p.apiKey, 'DELETE', `/v1/keys/${key.id}`);
    expect((await t.call(p.apiKey, 'GET', '/v1/keys')).status).toBe(200);
    const restored = await t.admin('POST', `/projects/${p.projectId}/keys/${key.id}/restore`);
    expect(restored.status).toBe(200);
    expect(await restored.json()).toEqual({ id: key.id, project_id: p.projectId, key: 'k', group_name: 'g', description: null, tags: [], max_length: null });
    const [value] = await sql`select value from translations where key_id = ${key.id}`;
    expect(value!.value).toBe('Hallo');
    // A live key cannot be restored; a deleted one whose name is in use is a conflict.
    expect((await t.admin('POST', `/projects/${p.projectId}/keys/${key.id}/restore`)).status).toBe(404);
    await t.call(p.apiKey, 'DELETE', `/v1/keys/${key.id}`);
    await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'k' });
    expect((await t.admin('POST', `/projects/${p.projectId}/keys/${key.id}/restore`)).status).toBe(409);
    const other = await t.newProject();
    expect((await t.admin('POST', `/projects/${other.projectId}/keys/${key.id}/restore`)).status).toBe(404);
  });

  it("undoes a group's last delete as a whole; 409 leaves everything deleted", async () => {
    const p = await t.newProject();
    const early = await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'g.early', group_name: 'g' })).json();
    await t.call(p.apiKey, 'DELETE', `/v1/keys/${early.id}`);
    for (const key of ['g.a', 'g.b']) await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name: 'g' });
    expect((await t.call(p.apiKey, 'DELETE', '/v1/groups/g')).status).toBe(204);
    const res = await t.admin('POST', `/projects/${p.projectId}/groups/g/restore`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ project_id: p.projectId, group_name: 'g', keys_restored: 2 });
    const keys = await (await t.call(p.apiKey, 'GET', '/v1/keys?group=g')).json();
    expect(keys.keys.map((k: { key: string }) => k.key)).toEqual(['g.a', 'g.b']);

    await t.call(p.apiKey, 'DELETE', '/v1/groups/g');
    await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'g.b', group_name: 'elsewhere' });
    const clash = await t.admin('POST', `/projects/${p.projectId}/groups/g/restore`);
    expect(clash.status).toBe(409);
    expect((await clash.json()).detail).toContain('g.b');
    expect((await (await t.call(p.apiKey, 'GET', '/v1/keys?group=g')).json()).count).toBe(0);
    expect((await t.admin('POST', `/projects/${p.projectId}/groups/never/restore`)).status).toBe(404);
  });

  it('restores respect the plan key limit (402)', async () => {
    const p = await t.newProject('free');
    const key = await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'gone' })).json();
    await t.call(p.apiKey, 'DELETE', `/v1/keys/${key.id}`);
    const rows = Array.from({ length: 250 }, (_, i) => ({ project_id: p.projectId, key: `fill.${i}`, group_name: 'fill' }));
    await t.runtime.deps.sql`insert into translation_keys ${t.runtime.deps.sql(rows)}`;
    expect((await t.admin('POST', `/projects/${p.projectId}/keys/${key.id}/restore`)).status).toBe(402);
  });
});
