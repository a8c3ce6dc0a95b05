import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';

const t = useTestApp();

describe('keys', () => {
  it('creates, lists, filters by group, patches and soft-deletes a key', async () => {
    const p = await t.newProject();
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.title', group_name: 'home', description: 'Title' });
    expect(created.status).toBe(201);
    const key = await created.json();
    expect(key).toEqual({ id: expect.any(String), project_id: p.projectId, key: 'home.title', group_name: 'home', description: 'Title', tags: [], max_length: null });

    const other = await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'login.button' })).json();
    expect(other.group_name).toBe('Default');
    expect(other.description).toBeNull();

    const list = await (await t.call(p.apiKey, 'GET', '/v1/keys')).json();
    expect(list.project_id).toBe(p.projectId);
    expect(list.count).toBe(2);
    expect(list.keys.map((k: { key: string }) => k.key)).toEqual(['home.title', 'login.button']);
    const item = list.keys[0];
    expect(Object.keys(item).sort()).toEqual(['created_at', 'description', 'group_name', 'id', 'key', 'max_length', 'tags', 'updated_at']);
    expect(item.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const filtered = await (await t.call(p.apiKey, 'GET', '/v1/keys?group=home')).json();
    expect(filtered.keys.map((k: { key: string }) => k.key)).toEqual(['home.title']);
    expect(filtered.count).toBe(1);

    const patched = await t.call(p.apiKey, 'PATCH', `/v1/keys/${key.id}`, { group_name: 'landing', description: null });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toEqual({ id: key.id, project_id: p.projectId, updated: true, group_name: 'landing', tags: [], max_length: null });
    const after = await (await t.call(p.apiKey, 'GET', '/v1/keys?group=landing')).json();
    expect(after.keys[0].description).toBeNull();
    expect(after.keys[0].updated_at >= after.keys[0].created_at).toBe(true);

    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${key.id}`)).status).toBe(204);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${key.id}`)).status).toBe(404);
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${key.id}`, { description: 'x' })).status).toBe(404);
    const final = await (await t.call(p.apiKey, 'GET', '/v1/keys')).json();
    expect(final.keys.map((k: { key: string }) => k.key)).toEqual(['login.button']);
  });
});

describe('key names', () => {
  it('are unique among live keys whatever the group: 409, and a soft delete frees the name', async () => {
    const p = await t.newProject();
    const a = await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'dup', group_name: 'one' })).json();
    const again = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'dup', group_name: 'two' });
    expect(again.status).toBe(409);
    expect((await again.json()).detail).toContain("'dup'");
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${a.id}`)).status).toBe(204);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'dup', group_name: 'two' })).status).toBe(201);
  });

  // free has a key limit (the locked path), team has none (one statement, no lock): both keep names unique.
  it.each(['free', 'team'] as const)('ten concurrent creates of one name give exactly one 201 and nine 409s (%s plan)', async (plan) => {
    const p = await t.newProject(plan);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => t.call(p.apiKey, 'POST', '/v1/keys', { key: 'race.me' })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    const list = await (await t.call(p.apiKey, 'GET', '/v1/keys')).json();
    expect(list.count).toBe(1);
  });

  it('a plan without a key limit creates a key in one statement (no lock, no transaction); a limited plan takes the locked path', async () => {
    const statements: string[] = [];
    const options = t.runtime.deps.sql.options as { debug?: unknown };
    const count = async (apiKey: string, key: string) => {
      await t.call(apiKey, 'GET', '/v1/keys?limit=1'); // the API key verified and cached first
      statements.length = 0;
      options.debug = (_connection: number, query: string) => statements.push(query);
      try {
        expect((await t.call(apiKey, 'POST', '/v1/keys', { key })).status).toBe(201);
      } finally {
        options.debug = false;
      }
      // Background workers (rebuild queue, webhooks, statistics) share the client: not the request's.
      return statements.filter((q) => !/\bcache_state\b|\bwebhook_(outbox|deliveries)\b|\bpg_stat_user_tables\b|^\s*analyze\b|auto_rebuild/i.test(q));
    };
    const team = await t.newProject('team');
    expect(await count(team.apiKey, 'one.statement')).toHaveLength(1);
    const free = await t.newProject('free');
    const locked = await count(free.apiKey, 'locked');
    expect(locked.some((q) => /for no key update of p/.test(q))).toBe(true);
  });

  it('count characters, not bytes or UTF-16 units', async () => {
    const p = await t.newProject();
    const emoji500 = '👋'.repeat(500); // 500 characters, 1,000 UTF-16 units, 2,000 bytes
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: emoji500 })).status).toBe(201);
    const tooLong = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'é'.repeat(501) });
    expect(tooLong.status).toBe(422);
    expect((await tooLong.json()).detail[0].loc).toEqual(['body', 'key']);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'd1', description: '字'.repeat(1000) })).status).toBe(201);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'd2', description: '字'.repeat(1001) })).status).toBe(422);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'g1', group_name: 'ü'.repeat(200) })).status).toBe(201);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'g2', group_name: 'ü'.repeat(201) })).status).toBe(422);
  });

  it('refuse empty names, control characters, NUL and unpaired surrogates with 422', async () => {
    const p = await t.newProject();
    for (const key of ['', '.', '..', 'a\u0000b', 'tab\there', 'line\nbreak', 'lone\ud800surrogate']) {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key });
      expect(res.status, JSON.stringify(key)).toBe(422);
    }
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'ok', description: 'nul\u0000' })).status).toBe(422);
  });

  it('refuse invalid group names and unknown fields', async () => {
    const p = await t.newProject();
    for (const group_name of ['', 'has/slash', 'semi;colon', ' lead', 'trail ', 5, null]) {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'x', group_name });
      expect(res.status, JSON.stringify(group_name)).toBe(422);
    }
    const extra = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'x', colour: 'red' });
    expect(extra.status).toBe(422);
    expect((await extra.json()).detail).toEqual([{ loc: ['body', 'colour'], msg: "Unknown field 'colour'", type: 'extra_forbidden' }]);
    const missing = await t.call(p.apiKey, 'POST', '/v1/keys', {});
    expect((await missing.json()).detail).toEqual([{ loc: ['body', 'key'], msg: 'Field required', type: 'missing' }]);
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${crypto.randomUUID()}`, {})).status).toBe(422);
  });
});

describe('plan key limits (section 8)', () => {
  const seed = async (projectId: string, n: number) => {
    const rows = Array.from({ length: n }, (_, i) => ({ project_id: projectId, key: `seed.${i}`, group_name: 'seed' }));
    await t.runtime.deps.sql`insert into translation_keys ${t.runtime.deps.sql(rows)}`;
  };

  it('free allows 250 keys per project, then 402 with a detail string', async () => {
    const p = await t.newProject('free');
    await seed(p.projectId, 249);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'k250' })).status).toBe(201);
    const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'k251' });
    expect(res.status).toBe(402);
    expect((await res.json()).detail).toMatch(/Key limit reached: the free plan allows 250 keys/);
  });

  it('deleted keys do not count, and concurrent creates never pass the limit', async () => {
    const p = await t.newProject('free');
    await seed(p.projectId, 245);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.call(p.apiKey, 'POST', '/v1/keys', { key: `c${i}` })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 402)).toHaveLength(7);
    const one = (await (await t.call(p.apiKey, 'GET', '/v1/keys?group=Default')).json()).keys[0];
    await t.call(p.apiKey, 'DELETE', `/v1/keys/${one.id}`);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'after-delete' })).status).toBe(201);
  });

  it('solo allows 2,500; team is unlimited; an upgrade lifts the limit at once', async () => {
    const p = await t.newProject('solo');
    await seed(p.projectId, 2500);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'over' })).status).toBe(402);
    expect((await t.admin('PATCH', `/accounts/${p.accountId}`, { plan: 'team' })).status).toBe(200);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'over' })).status).toBe(201);
  });
});

describe('isolation', () => {
  it("another project's key ids are 404 and its keys never listed", async () => {
    const a = await t.newProject();
    const b = await t.newProject();
    const key = await (await t.call(a.apiKey, 'POST', '/v1/keys', { key: 'secret.key', group_name: 'secret' })).json();
    expect((await t.call(b.apiKey, 'PATCH', `/v1/keys/${key.id}`, { description: 'mine' })).status).toBe(404);
    expect((await t.call(b.apiKey, 'DELETE', `/v1/keys/${key.id}`)).status).toBe(404);
    expect((await (await t.call(b.apiKey, 'GET', '/v1/keys')).json()).count).toBe(0);
    expect((await (await t.call(b.apiKey, 'GET', '/v1/keys?group=secret')).json()).count).toBe(0);
    // b may use the same name: uniqueness is per project.
    expect((await t.call(b.apiKey, 'POST', '/v1/keys', { key: 'secret.key' })).status).toBe(201);
    expect((await (await t.call(a.apiKey, 'GET', '/v1/keys')).json()).count).toBe(1);
  });
});
