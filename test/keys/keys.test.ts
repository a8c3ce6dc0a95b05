import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';

const t = useTestApp();

describe('keys', () => {
  it('creates, lists, filters by group, patches and soft-deletes a key', async () => {
    const p = await t.newProject();
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.title', group_name: 'home', description: 'Title' });
    expect(created.status).toBe(201);
    const key = await created.json();
    expect(key).toEqual({ id: expect.any(String), project_id: p.projectId, key: 'home.title', group_name: 'home', description: 'Title' });

    const other = await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'login.button' })).json();
    expect(other.group_name).toBe('Default');
    expect(other.description).toBeNull();

    const list = await (await t.call(p.apiKey, 'GET', '/v1/keys')).json();
    expect(list.project_id).toBe(p.projectId);
    expect(list.count).toBe(2);
    expect(list.keys.map((k: { key: string }) => k.key)).toEqual(['home.title', 'login.button']);
    const item = list.keys[0];
    expect(Object.keys(item).sort()).toEqual(['created_at', 'description', 'group_name', 'id', 'key', 'updated_at']);
    expect(item.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const filtered = await (await t.call(p.apiKey, 'GET', '/v1/keys?group=home')).json();
    expect(filtered.keys.map((k: { key: string }) => k.key)).toEqual(['home.title']);
    expect(filtered.count).toBe(1);

    const patched = await t.call(p.apiKey, 'PATCH', `/v1/keys/${key.id}`, { group_name: 'landing', description: null });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toEqual({ id: key.id, project_id: p.projectId, updated: true, group_name: 'landing' });
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
