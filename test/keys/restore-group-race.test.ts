// Restoring a group (admin API, portal trash; core/groups/restore-group.ts) undoes its last delete,
// read once: named by a subquery in each statement, a key of the group soft-deleted between them
// (DELETE /v1/keys/{id} takes no project lock) became the "last delete" for the UPDATE, which then
// brought back that one key instead of the keys checked and counted (and answered their count).
//
// The interleaving is made exact: just before the UPDATE is sent, a separate backend (psql, a
// process of its own) commits the soft delete a concurrent DELETE /v1/keys/{id} would. Real
// Postgres only (PGlite runs one statement at a time).
import { describe, expect, it } from 'vitest';
import { usingRealPostgres } from '../support/test-database.ts';
import { useTestApp } from '../support/test-app.ts';
import { databaseUrl, onQuery } from '../support/commit-in-another-backend.ts';

const t = useTestApp();

describe.runIf(usingRealPostgres())('group restore racing a key delete in the same group', () => {
  it('restores the keys it checked and counted, not a key deleted meanwhile', async () => {
    const p = await t.newProject('team');
    const create = async (key: string) => {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name: 'g' });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const a = await create('g.a');
    const b = await create('g.b');
    expect((await t.call(p.apiKey, 'DELETE', '/v1/groups/g')).status).toBe(204);
    // The group lives again with a new key, which a client deletes while the group is restored.
    const c = await create('g.c');

    const url = await databaseUrl(t.runtime.deps.sql);
    const stop = onQuery(t.runtime.deps.sql, /update translation_keys set deleted_at = null/, url,
      `update translation_keys set deleted_at = now(), updated_at = now() where id = '${c}'`);
    let res: Response;
    try {
      res = await t.admin('POST', `/projects/${p.projectId}/groups/g/restore`);
    } finally {
      stop();
    }
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ project_id: p.projectId, group_name: 'g', keys_restored: 2 });

    const live = (await (await t.call(p.apiKey, 'GET', '/v1/keys?group=g')).json()) as { keys: { id: string }[] };
    // Restored: the two keys of the group's delete (the ones counted in keys_restored), whatever
    // became of the key deleted meanwhile.
    expect(live.keys.map((k) => k.id)).toEqual(expect.arrayContaining([a, b]));
  });
});
