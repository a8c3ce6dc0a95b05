// core/groups called directly: groups derived from live keys, rename all-or-nothing, delete as a
// soft delete of the group's keys and restore as its exact undo (also past Postgres' 65,535
// bind-parameter limit), and no way to reach another project's groups.
import { describe, expect, it } from 'vitest';
import { createKey } from '../../core/keys/create-key.ts';
import { deleteKey } from '../../core/keys/delete-key.ts';
import { listKeys } from '../../core/keys/list-keys.ts';
import { listGroups } from '../../core/groups/list-groups.ts';
import { validateGroup } from '../../core/groups/validate-group.ts';
import { renameGroup } from '../../core/groups/rename-group.ts';
import { deleteGroup } from '../../core/groups/delete-group.ts';
import { restoreGroup } from '../../core/groups/restore-group.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { readGroup } from '../../core/translations/read-group.ts';
import { domainError, liveKeyCount, seedKeys, useCore, liveJson, bodyJson } from './support/core-harness.ts';

const core = useCore();

async function keysIn(projectId: string, group: string) {
  return (await listKeys(core.deps, { projectId, group })).keys.map((k) => k.key);
}

/** The ids of the group's live keys, sorted. */
async function idsIn(projectId: string, group: string) {
  const rows = await core.deps.sql<{ id: string }[]>`
    select id::text as id from translation_keys where project_id = ${projectId} and group_name = ${group} and deleted_at is null`;
  return rows.map((r) => r.id).sort();
}

describe('listGroups and validateGroup', () => {
  it('lists the groups of live keys only, and validates a name without storing it', async () => {
    const p = await core.newProject();
    await createKey(core.deps, { projectId: p.projectId, key: 'a', group_name: 'Zeta', actor: p.actor });
    const doomed = await createKey(core.deps, { projectId: p.projectId, key: 'b', group_name: 'Alpha', actor: p.actor });
    await deleteKey(core.deps, { projectId: p.projectId, keyId: doomed.id, actor: p.actor });
    expect(await listGroups(core.deps, { projectId: p.projectId })).toEqual({ project_id: p.projectId, groups: ['Zeta'], count: 1 });

    expect(await validateGroup(core.deps, { projectId: p.projectId, name: 'Alpha' })).toEqual({ project_id: p.projectId, name: 'Alpha', created: true });
    await domainError(validateGroup(core.deps, { projectId: p.projectId, name: 'Zeta' }), 'conflict');
    for (const name of ['', 'a/b', ' x', 'x'.repeat(201), 'nul\u0000']) {
      const error = await domainError(validateGroup(core.deps, { projectId: p.projectId, name }), 'validation');
      expect(error.issues?.[0]?.loc, JSON.stringify(name)).toEqual(['name']);
    }
    expect((await listGroups(core.deps, { projectId: p.projectId })).groups).toEqual(['Zeta']);
  });
});

describe('renameGroup', () => {
  it('moves every live key and records one group.renamed event with the old and new names', async () => {
    const p = await core.newProject();
    for (const key of ['a', 'b', 'c']) await createKey(core.deps, { projectId: p.projectId, key, group_name: 'old', actor: p.actor });
    const since = await core.lastEventId();
    expect(await renameGroup(core.deps, { projectId: p.projectId, name: 'old', newName: 'new', actor: p.actor })).toEqual({
      project_id: p.projectId,
      old_name: 'old',
      new_name: 'new',
      keys_updated: 3,
    });
    expect(await keysIn(p.projectId, 'new')).toEqual(['a', 'b', 'c']);
    expect(await keysIn(p.projectId, 'old')).toEqual([]);
    const renamed = await core.events({ projectId: p.projectId }, since);
    expect(renamed).toEqual([
      expect.objectContaining({
        type: 'group.renamed',
        actor_type: 'api_key',
        actor_id: p.apiKeyId,
        entity_type: 'group',
        entity_id: 'new',
        before: { name: 'old' },
        after: { name: 'new', keys: 3, key_ids: expect.any(Array) },
      }),
    ]);
    // Its keys' ids, for webhooks (core/webhooks/listed-keys.ts).
    expect([...(renamed[0]!.after as { key_ids: string[] }).key_ids].sort()).toEqual(await idsIn(p.projectId, 'new'));
  });

  it('refuses a taken target (409), an unknown or impossible source (404), an invalid target (422), recording nothing', async () => {
    const p = await core.newProject();
    await createKey(core.deps, { projectId: p.projectId, key: 'a', group_name: 'one', actor: p.actor });
    await createKey(core.deps, { projectId: p.projectId, key: 'b', group_name: 'two', actor: p.actor });
    const since = await core.lastEventId();
    await domainError(renameGroup(core.deps, { projectId: p.projectId, name: 'one', newName: 'two', actor: p.actor }), 'conflict');
    await domainError(renameGroup(core.deps, { projectId: p.projectId, name: 'none', newName: 'x', actor: p.actor }), 'not_found');
    await domainError(renameGroup(core.deps, { projectId: p.projectId, name: 'a/b', newName: 'x', actor: p.actor }), 'not_found');
    const invalid = await domainError(renameGroup(core.deps, { projectId: p.projectId, name: 'one', newName: 'a/b', actor: p.actor }), 'validation');
    expect(invalid.issues?.[0]?.loc).toEqual(['newName']);
    expect(await keysIn(p.projectId, 'one')).toEqual(['a']);
    expect(await keysIn(p.projectId, 'two')).toEqual(['b']);
    expect(await core.events({ projectId: p.projectId }, since)).toEqual([]);
  });
});

describe('deleteGroup and restoreGroup', () => {
  it("soft-deletes the group's keys (values kept, other groups untouched) and restore brings exactly them back", async () => {
    const p = await core.newProject();
    await addLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor });
    const kept = await createKey(core.deps, { projectId: p.projectId, key: 'other.k', group_name: 'other', actor: p.actor });
    const earlier = await createKey(core.deps, { projectId: p.projectId, key: 'g.earlier', group_name: 'g', actor: p.actor });
    await deleteKey(core.deps, { projectId: p.projectId, keyId: earlier.id, actor: p.actor });
    const ids: string[] = [];
    for (const key of ['g.a', 'g.b']) {
      const k = await createKey(core.deps, { projectId: p.projectId, key, group_name: 'g', actor: p.actor });
      await putTranslation(core.deps, { projectId: p.projectId, keyId: k.id, language: 'de', value: `${key} de`, status: 'approved', actor: p.actor });
      ids.push(k.id);
    }
    await putTranslation(core.deps, { projectId: p.projectId, keyId: kept.id, language: 'de', value: 'bleibt', status: 'approved', actor: p.actor });
    const since = await core.lastEventId();

    expect(await deleteGroup(core.deps, { projectId: p.projectId, name: 'g', actor: p.actor })).toBe(2);
    expect(await keysIn(p.projectId, 'g')).toEqual([]);
    expect(await keysIn(p.projectId, 'other')).toEqual(['other.k']);
    await domainError(readGroup(core.deps, { projectId: p.projectId, language: 'de', group: 'g' }), 'not_found');
    // Soft: the rows and their values are still there.
    const [stored] = await core.deps.sql<{ keys: number; values: number }[]>`
      select count(distinct k.id)::int as keys, count(t.key_id)::int as values
      from translation_keys k left join translations t on t.key_id = k.id
      where k.project_id = ${p.projectId} and k.group_name = 'g' and k.deleted_at is not null`;
    expect(stored).toEqual({ keys: 3, values: 2 });
    await domainError(deleteGroup(core.deps, { projectId: p.projectId, name: 'g', actor: p.actor }), 'not_found');

    expect(await restoreGroup(core.deps, { projectId: p.projectId, name: 'g', actor: p.actor })).toEqual({
      project_id: p.projectId,
      group_name: 'g',
      keys_restored: 2,
    });
    // The key deleted on its own before the group delete stays deleted.
    expect(await keysIn(p.projectId, 'g')).toEqual(['g.a', 'g.b']);
    expect(bodyJson(await readGroup(core.deps, { projectId: p.projectId, language: 'de', group: 'g' })).translations).toEqual({
      'g.a': 'g.a de',
      'g.b': 'g.b de',
    });

    const events = await core.events({ projectId: p.projectId }, since);
    // Each lists its keys' ids, for webhooks (core/webhooks/listed-keys.ts).
    const restoredIds = await idsIn(p.projectId, 'g');
    const sorted = (x: unknown) => ({ ...(x as Record<string, unknown>), key_ids: [...((x as { key_ids: string[] }).key_ids)].sort() });
    expect(events.map((e) => [e.type, e.entity_type, e.entity_id, e.actor_id, e.before && sorted(e.before), e.after && sorted(e.after)])).toEqual([
      ['group.deleted', 'group', 'g', p.apiKeyId, { keys: 2, key_ids: restoredIds }, null],
      ['group.restored', 'group', 'g', p.apiKeyId, null, { keys: 2, key_ids: restoredIds }],
    ]);
  });

  it('refuses a restore when a name is live again (409 naming it), or when nothing is deleted (404), restoring nothing', async () => {
    const p = await core.newProject();
    for (const key of ['g.a', 'g.b']) await createKey(core.deps, { projectId: p.projectId, key, group_name: 'g', actor: p.actor });
    await deleteGroup(core.deps, { projectId: p.projectId, name: 'g', actor: p.actor });
    await createKey(core.deps, { projectId: p.projectId, key: 'g.b', group_name: 'elsewhere', actor: p.actor });
    const since = await core.lastEventId();
    const clash = await domainError(restoreGroup(core.deps, { projectId: p.projectId, name: 'g', actor: p.actor }), 'conflict');
    expect(clash.message).toContain('g.b');
    expect(await keysIn(p.projectId, 'g')).toEqual([]);
    await domainError(restoreGroup(core.deps, { projectId: p.projectId, name: 'never', actor: p.actor }), 'not_found');
    await domainError(restoreGroup(core.deps, { projectId: p.projectId, name: 'a/b', actor: p.actor }), 'not_found');
    expect(await core.events({ projectId: p.projectId }, since)).toEqual([]);
  });

  it("refuses a restore that would pass the plan's key limit, with the numbers", async () => {
    const p = await core.newProject('free'); // 250 keys
    await seedKeys(core.deps, p.projectId, 10, { group: 'g' });
    await deleteGroup(core.deps, { projectId: p.projectId, name: 'g', actor: p.actor });
    await seedKeys(core.deps, p.projectId, 245, { group: 'filler' });
    const error = await domainError(restoreGroup(core.deps, { projectId: p.projectId, name: 'g', actor: p.actor }), 'plan_limit');
    expect(error.data).toEqual({ resource: 'keys', plan: 'free', limit: 250, current: 245, adding: 10 });
    expect(await liveKeyCount(core.deps, p.projectId, 'g')).toBe(0);
  });

  it('deletes and restores a group of 70,000 keys (more than 65,535 bind parameters could name)', async () => {
    const p = await core.newProject('team');
    await seedKeys(core.deps, p.projectId, 70_000, { group: 'huge' });
    await createKey(core.deps, { projectId: p.projectId, key: 'small.k', group_name: 'small', actor: p.actor });
    expect(await deleteGroup(core.deps, { projectId: p.projectId, name: 'huge', actor: p.actor })).toBe(70_000);
    expect(await liveKeyCount(core.deps, p.projectId)).toBe(1);
    expect(await restoreGroup(core.deps, { projectId: p.projectId, name: 'huge', actor: p.actor })).toMatchObject({ keys_restored: 70_000 });
    expect(await liveKeyCount(core.deps, p.projectId, 'huge')).toBe(70_000);
    expect(await liveKeyCount(core.deps, p.projectId)).toBe(70_001);
  }, 60_000);
});

describe('isolation between projects', () => {
  it("never renames, deletes, restores or lists another project's group", async () => {
    const a = await core.newProject();
    const b = await core.newProject();
    await createKey(core.deps, { projectId: a.projectId, key: 'k1', group_name: 'shared', actor: a.actor });
    await createKey(core.deps, { projectId: a.projectId, key: 'k2', group_name: 'gone', actor: a.actor });
    await deleteGroup(core.deps, { projectId: a.projectId, name: 'gone', actor: a.actor });
    const since = await core.lastEventId();

    expect((await listGroups(core.deps, { projectId: b.projectId })).groups).toEqual([]);
    await validateGroup(core.deps, { projectId: b.projectId, name: 'shared' });
    await domainError(renameGroup(core.deps, { projectId: b.projectId, name: 'shared', newName: 'mine', actor: b.actor }), 'not_found');
    await domainError(deleteGroup(core.deps, { projectId: b.projectId, name: 'shared', actor: b.actor }), 'not_found');
    await domainError(restoreGroup(core.deps, { projectId: b.projectId, name: 'gone', actor: b.actor }), 'not_found');

    expect(await keysIn(a.projectId, 'shared')).toEqual(['k1']);
    expect(await keysIn(a.projectId, 'gone')).toEqual([]);
    expect(await core.events({ projectId: a.projectId }, since)).toEqual([]);
  });
});
