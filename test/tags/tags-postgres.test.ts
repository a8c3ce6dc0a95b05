// Tags under concurrency, on real PostgreSQL (PGlite has one backend, so nothing there runs at once).
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { usingRealPostgres } from '../support/test-database.ts';

const t = useTestApp();

describe.skipIf(!usingRealPostgres())('tags: concurrent writers on PostgreSQL', () => {
  it('bulk tag changes at once over the same keys all land (no lost tag), one event per key each', async () => {
    const p = await t.newProject('team');
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k${String(i).padStart(2, '0')}`, group_name: 'g', tags: ['base'] });
      ids.push((await res.json()).id);
    }
    // Eight actions at once, each over all keys (as ids, half of them reversed, and as a filter):
    // each reads the tags after taking its locks, so none writes over another's.
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) => {
        const selection = n % 3 === 0 ? { filter: { group: 'g' } } : { key_ids: n % 2 ? ids : [...ids].reverse() };
        return t.call(p.apiKey, 'POST', '/v1/keys/bulk-tags', { ...selection, add: [`t${n}`], ...(n === 7 ? { remove: ['base'] } : {}) });
      }),
    );
    for (const res of answers) expect(res.status, await res.clone().text()).toBe(200);
    expect(answers.length).toBe(8);
    const keys = (await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys as { tags: string[] }[];
    for (const key of keys) expect(key.tags).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7']);
    const [events] = await t.runtime.deps.sql<{ n: number }[]>`
      select count(*)::int as n from domain_events where project_id = ${p.projectId} and type = 'key.tagged'`;
    expect(events!.n).toBe(8 * 40);
  });

  it('a bulk tag change and a group delete at once: one waits for the other, no deadlock, no 500', async () => {
    const p = await t.newProject('team');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k${i}`, group_name: 'g' })).json()).id);
    const [tagged, deleted] = await Promise.all([
      t.call(p.apiKey, 'POST', '/v1/keys/bulk-tags', { key_ids: [...ids].reverse(), add: ['x'] }),
      t.call(p.apiKey, 'DELETE', '/v1/groups/g'),
    ]);
    expect(deleted.status).toBe(204);
    // Either it ran first (200), or the keys were deleted before it locked them (404 naming them).
    expect([200, 404], await tagged.clone().text()).toContain(tagged.status);
  });
});
