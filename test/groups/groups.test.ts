import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';

const t = useTestApp();

async function keys(p: TestProject, ...specs: [string, string][]) {
  const out: Record<string, string> = {};
  for (const [key, group_name] of specs) {
    const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name });
    expect(res.status).toBe(201);
    out[key] = (await res.json()).id;
  }
  return out;
}

describe('groups', () => {
  it('are derived from live keys, sorted, and vanish with their last key', async () => {
    const p = await t.newProject();
    const ids = await keys(p, ['b.1', 'beta'], ['a.1', 'alpha'], ['a.2', 'alpha']);
    expect(await (await t.call(p.apiKey, 'GET', '/v1/groups')).json()).toEqual({ project_id: p.projectId, groups: ['alpha', 'beta'], count: 2 });
    await t.call(p.apiKey, 'DELETE', `/v1/keys/${ids['b.1']}`);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/groups')).json()).groups).toEqual(['alpha']);
  });

  it('POST validates a name and confirms it is unused, storing nothing', async () => {
    const p = await t.newProject();
    await keys(p, ['x', 'taken']);
    const ok = await t.call(p.apiKey, 'POST', '/v1/groups', { name: 'Fresh name_1.0-b' });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ project_id: p.projectId, name: 'Fresh name_1.0-b', created: true });
    expect((await (await t.call(p.apiKey, 'GET', '/v1/groups')).json()).groups).toEqual(['taken']);
    expect((await t.call(p.apiKey, 'POST', '/v1/groups', { name: 'taken' })).status).toBe(409);
    // '.' and '..' could never be addressed: URL parsing removes such path segments.
    for (const name of ['', 'a/b', 'x'.repeat(201), ' pad', 42, '.', '..']) {
      const res = await t.call(p.apiKey, 'POST', '/v1/groups', { name });
      expect(res.status, JSON.stringify(name)).toBe(422);
      expect((await res.json()).detail[0].loc).toEqual(['body', 'name']);
    }
  });

  it('rename moves every live key atomically and reports keys_updated', async () => {
    const p = await t.newProject();
    const ids = await keys(p, ['h.1', 'home'], ['h.2', 'home'], ['h.3', 'home'], ['o.1', 'other']);
    await t.call(p.apiKey, 'DELETE', `/v1/keys/${ids['h.3']}`);
    const res = await t.call(p.apiKey, 'PATCH', '/v1/groups/home', { new_name: 'Home screen' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ project_id: p.projectId, old_name: 'home', new_name: 'Home screen', keys_updated: 2 });
    const moved = await (await t.call(p.apiKey, 'GET', `/v1/keys?group=${encodeURIComponent('Home screen')}`)).json();
    expect(moved.keys.map((k: { key: string }) => k.key)).toEqual(['h.1', 'h.2']);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/groups')).json()).groups).toEqual(['Home screen', 'other']);
  });

  it('rename: 404 for a missing source, 409 for a target in use, 422 for an invalid target', async () => {
    const p = await t.newProject();
    await keys(p, ['a', 'one'], ['b', 'two']);
    expect((await t.call(p.apiKey, 'PATCH', '/v1/groups/none', { new_name: 'x' })).status).toBe(404);
    expect((await t.call(p.apiKey, 'PATCH', '/v1/groups/bad%2Fname', { new_name: 'x' })).status).toBe(404);
    expect((await t.call(p.apiKey, 'PATCH', '/v1/groups/one', { new_name: 'two' })).status).toBe(409);
    expect((await t.call(p.apiKey, 'PATCH', '/v1/groups/one', { new_name: 'one' })).status).toBe(409);
    expect((await t.call(p.apiKey, 'PATCH', '/v1/groups/one', { new_name: 'no/slash' })).status).toBe(422);
    expect((await t.call(p.apiKey, 'PATCH', '/v1/groups/one', { new_name: '..' })).status).toBe(422);
    const dotted = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'dot.k', group_name: '.' });
    expect(dotted.status).toBe(422);
    expect((await dotted.json()).detail[0].loc).toEqual(['body', 'group_name']);
    expect((await t.call(p.apiKey, 'PATCH', '/v1/groups/one', {})).status).toBe(422);
  });

  it('delete soft-deletes every key of the group; 404 once gone', async () => {
    const p = await t.newProject();
    await keys(p, ['d.1', 'doomed'], ['d.2', 'doomed'], ['k.1', 'kept']);
    expect((await t.call(p.apiKey, 'DELETE', '/v1/groups/doomed')).status).toBe(204);
    expect((await t.call(p.apiKey, 'DELETE', '/v1/groups/doomed')).status).toBe(404);
    const list = await (await t.call(p.apiKey, 'GET', '/v1/keys')).json();
    expect(list.keys.map((k: { key: string }) => k.key)).toEqual(['k.1']);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'd.1' })).status).toBe(201);
  });

  it('a group name with spaces and unicode works in paths', async () => {
    const p = await t.newProject();
    await keys(p, ['u.1', 'Écran d’accueil'.replace('’', '')]);
    const name = 'Écran daccueil';
    const res = await t.call(p.apiKey, 'PATCH', `/v1/groups/${encodeURIComponent(name)}`, { new_name: 'ホーム' });
    expect(res.status).toBe(200);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/groups/${encodeURIComponent('ホーム')}`)).status).toBe(204);
  });

  it('digits are decimal digits of any script; other numbers (½, ², ①, Ⅻ) are refused, yet a group stored with one stays addressable', async () => {
    const p = await t.newProject();
    for (const name of ['Seite 2', 'صفحة ٣', 'पृष्ठ ४']) expect((await t.call(p.apiKey, 'POST', '/v1/groups', { name })).status, name).toBe(201);
    for (const name of ['½', 'x²', '①', 'Ⅻ', 'a⅓b']) {
      expect((await t.call(p.apiKey, 'POST', '/v1/groups', { name })).status, name).toBe(422);
      expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'k', group_name: name })).status, name).toBe(422);
      expect((await t.call(p.apiKey, 'PATCH', '/v1/groups/taken', { new_name: name })).status, name).toBe(422);
    }
    // A group named before such names were refused: read, filtered, renamed away.
    const { k } = await keys(p, ['k', 'old']);
    await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' });
    await t.call(p.apiKey, 'PUT', `/v1/keys/${k}/translations/de`, { value: 'Hallo', status: 'approved' });
    await t.runtime.deps.sql`update translation_keys set group_name = 'x²' where id = ${k!}`;
    expect((await (await t.call(p.apiKey, 'GET', `/v1/translations/de/${encodeURIComponent('x²')}`)).json()).translations).toEqual({ k: 'Hallo' });
    expect((await (await t.call(p.apiKey, 'GET', `/v1/keys?group=${encodeURIComponent('x²')}`)).json()).keys.map((key: { id: string }) => key.id)).toEqual([k]);
    expect((await t.call(p.apiKey, 'PATCH', `/v1/groups/${encodeURIComponent('x²')}`, { new_name: 'x2' })).status).toBe(200);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/groups')).json()).groups).toEqual(['x2']);
  });

  it("isolation: another project's groups are invisible and untouchable", async () => {
    const a = await t.newProject();
    const b = await t.newProject();
    await keys(a, ['s.1', 'secret']);
    expect((await (await t.call(b.apiKey, 'GET', '/v1/groups')).json()).count).toBe(0);
    expect((await t.call(b.apiKey, 'PATCH', '/v1/groups/secret', { new_name: 'mine' })).status).toBe(404);
    expect((await t.call(b.apiKey, 'DELETE', '/v1/groups/secret')).status).toBe(404);
    expect((await t.call(b.apiKey, 'POST', '/v1/groups', { name: 'secret' })).status).toBe(201);
    expect((await (await t.call(a.apiKey, 'GET', '/v1/groups')).json()).groups).toEqual(['secret']);
  });
});
