// conflict=fail with a tag writes nothing; a deleted key leaves the tag list and filters, its restore brings its tags back; a PATCH that changes nothing records nothing.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { restoreKey } from '../../core/keys/restore-key.ts';

const t = useTestApp();
const post = (p: { apiKey: string }, path: string, body: string) => t.call(p.apiKey, 'POST', path, body, { 'Content-Type': 'application/octet-stream' });

describe('import and trash', () => {
  it('conflict=fail refused (409) leaves the existing keys untagged', async () => {
    const p = await t.newProject('team');
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'en' })).status).toBe(201);
    expect((await post(p, '/v1/import/en?format=json', JSON.stringify({ a: 'A', b: 'B' }))).status).toBe(200);
    const res = await post(p, '/v1/import/en?format=json&conflict=fail&tag=mobile', JSON.stringify({ a: 'A', b: 'changed', c: 'C' }));
    expect(res.status).toBe(409);
    const keys = (await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys as { key: string; tags: string[] }[];
    expect(keys.map((k) => [k.key, k.tags])).toEqual([['a', []], ['b', []]]);
  });

  it('a deleted key leaves the tag list and filters, and comes back with its tags', async () => {
    const p = await t.newProject('team');
    const k = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'x', tags: ['mobile'] })).json()) as { id: string };
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${k.id}`)).status).toBe(204);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/keys/tags')).json()).tags).toEqual([]);
    expect((await (await t.call(p.apiKey, 'POST', '/v1/keys/bulk-tags', { filter: { tag: 'mobile' }, add: ['y'] })).json()).changed).toBe(0);
    const restored = await restoreKey(t.runtime.deps, { projectId: p.projectId, keyId: k.id, actor: { type: 'user', id: crypto.randomUUID() } });
    expect(restored.tags).toEqual(['mobile']);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/keys/tags')).json()).tags).toEqual([{ name: 'mobile', keys: 1 }]);
  });

  it('PATCH with the same tags records no key.updated (as bulk-tags records nothing for keys already as asked)', async () => {
    const p = await t.newProject('team');
    const k = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'x', tags: ['mobile'] })).json()) as { id: string };
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${k.id}`, { tags: ['mobile'] })).status).toBe(200);
    const events = await t.runtime.deps.sql`select 1 from domain_events where project_id = ${p.projectId} and type = 'key.updated'`;
    expect(events).toHaveLength(0);
  });
});
