// Tags with array-literal characters (quotes, backslashes, braces, NULL) on every write path: the locked create (free plan) and the batched one.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';

const t = useTestApp();
const odd = ['a"b', 'c\\d', '{x}', 'NULL', 'p q', "it's", 'é'];

describe('odd tag characters round-trip', () => {
  it.each(['free', 'team'] as const)('on a %s plan: create, PATCH, bulk, import', async (plan) => {
    const p = await t.newProject(plan);
    const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'k1', tags: odd });
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as { id: string; tags: string[] };
    const want = [...odd].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(created.tags).toEqual(want);
    const patched = await t.call(p.apiKey, 'PATCH', `/v1/keys/${created.id}`, { tags: [...odd].reverse() });
    expect(((await patched.json()) as { tags: string[] }).tags).toEqual(want);
    const bulk = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-tags', { key_ids: [created.id], remove: ['NULL'], add: ['x"y'] });
    expect(bulk.status).toBe(200);
    const [row] = await t.runtime.deps.sql<{ tags: string[] }[]>`select tags from translation_keys where id = ${created.id}`;
    expect(row!.tags).toEqual(['x"y', ...want.filter((x) => x !== 'NULL')].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const tag of odd) {
      const list = (await (await t.call(p.apiKey, 'GET', `/v1/keys?tag=${encodeURIComponent(tag)}`)).json()) as { keys: unknown[] };
      expect(list.keys.length, tag).toBe(tag === 'NULL' ? 0 : 1);
    }
  });
});
