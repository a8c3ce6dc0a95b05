// core/keys called directly: validation as domain errors with locations, one event per write with
// its actor, names unique among live keys, the plan's key limit, soft delete and restore, and no
// way to reach another project's keys.
import { describe, expect, it } from 'vitest';
import { createKey } from '../../core/keys/create-key.ts';
import { updateKey } from '../../core/keys/update-key.ts';
import { deleteKey } from '../../core/keys/delete-key.ts';
import { restoreKey } from '../../core/keys/restore-key.ts';
import { listKeys } from '../../core/keys/list-keys.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { readKey } from '../../core/translations/read-key.ts';
import { domainError, liveKeyCount, seedKeys, useCore, liveJson, bodyJson } from './support/core-harness.ts';

const core = useCore();

describe('createKey', () => {
  it('creates a key with the default group and records one key.created event with the actor and the key', async () => {
    const p = await core.newProject();
    const since = await core.lastEventId();
    const publishedBefore = core.published.length;
    const key = await createKey(core.deps, { projectId: p.projectId, key: 'home.title', actor: p.actor });
    expect(key).toEqual({ id: expect.any(String), project_id: p.projectId, key: 'home.title', group_name: 'Default', description: null, tags: [], max_length: null });

    const events = await core.events({ projectId: p.projectId }, since);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'key.created',
        project_id: p.projectId,
        actor_type: 'api_key',
        actor_id: p.apiKeyId,
        entity_type: 'key',
        entity_id: key.id,
        before: null,
        after: key,
      }),
    ]);
    // The event published after commit is the stored one (same id), not a look-alike.
    expect(core.published.slice(publishedBefore)).toEqual([
      expect.objectContaining({ id: events[0]!.id, type: 'key.created', projectId: p.projectId, actor: p.actor }),
    ]);
  });

  it('refuses invalid input as a validation error located at the field, writing nothing', async () => {
    const p = await core.newProject();
    const since = await core.lastEventId();
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ key: 'k'.repeat(501) }, ['key']],
      [{ key: '' }, ['key']],
      [{ key: 'line\nbreak' }, ['key']],
      [{ key: '..' }, ['key']],
      [{ key: 'nul\u0000' }, ['key']],
      [{ key: 'lone \ud800' }, ['key']],
      [{ key: 'ok', group_name: 'bad/group' }, ['group_name']],
      [{ key: 'ok', group_name: ' padded' }, ['group_name']],
      [{ key: 'ok', description: 'd'.repeat(1_001) }, ['description']],
    ];
    for (const [fields, loc] of cases) {
      const error = await domainError(createKey(core.deps, { projectId: p.projectId, actor: p.actor, ...fields } as never), 'validation');
      // Every issue (a NUL is also a control character: two) is located at the field.
      expect([...new Set(error.issues?.map((i) => JSON.stringify(i.loc)))], JSON.stringify(fields).slice(0, 60)).toEqual([JSON.stringify(loc)]);
    }
    const noActor = await domainError(createKey(core.deps, { projectId: p.projectId, key: 'ok' } as never), 'validation');
    expect(noActor.issues).toEqual([{ loc: ['actor'], msg: 'Field required', type: 'missing' }]);
    const badProject = await domainError(createKey(core.deps, { projectId: 'not-a-uuid', key: 'ok', actor: p.actor }), 'validation');
    expect(badProject.issues?.[0]?.loc).toEqual(['projectId']);
    const badActor = await domainError(createKey(core.deps, { projectId: p.projectId, key: 'ok', actor: { type: 'robot' } } as never), 'validation');
    expect(badActor.issues?.[0]?.loc).toEqual(['actor', 'type']);

    expect(await liveKeyCount(core.deps, p.projectId)).toBe(0);
    expect(await core.events({ projectId: p.projectId }, since)).toEqual([]);
  });

  it('keeps names unique among live keys only: a conflict records nothing; a deleted key frees its name', async () => {
    const p = await core.newProject();
    const first = await createKey(core.deps, { projectId: p.projectId, key: 'dup', actor: p.actor });
    const since = await core.lastEventId();
    await domainError(createKey(core.deps, { projectId: p.projectId, key: 'dup', group_name: 'Other', actor: p.actor }), 'conflict');
    expect(await core.events({ projectId: p.projectId }, since)).toEqual([]);

    await deleteKey(core.deps, { projectId: p.projectId, keyId: first.id, actor: p.actor });
    const second = await createKey(core.deps, { projectId: p.projectId, key: 'dup', actor: p.actor });
    expect(second.id).not.toBe(first.id);
    // Now the deleted one cannot come back under the same live name.
    await domainError(restoreKey(core.deps, { projectId: p.projectId, keyId: first.id, actor: p.actor }), 'conflict');
  });

  it("refuses a key past the plan's limit with a plan_limit error carrying the numbers, writing nothing", async () => {
    const p = await core.newProject('free'); // 250 keys per project
    await seedKeys(core.deps, p.projectId, 250);
    const since = await core.lastEventId();
    const error = await domainError(createKey(core.deps, { projectId: p.projectId, key: 'one.too.many', actor: p.actor }), 'plan_limit');
    expect(error.data).toEqual({ resource: 'keys', plan: 'free', limit: 250, current: 250, adding: 1 });
    expect(error.message).toMatch(/250 keys/);
    expect(await liveKeyCount(core.deps, p.projectId)).toBe(250);
    expect(await core.events({ projectId: p.projectId }, since)).toEqual([]);

    // Soft-deleted keys do not count, and restoring one past the limit is refused the same way.
    const [seeded] = await core.deps.sql<{ id: string }[]>`select id from translation_keys where project_id = ${p.projectId} limit 1`;
    await deleteKey(core.deps, { projectId: p.projectId, keyId: seeded!.id, actor: p.actor });
    await createKey(core.deps, { projectId: p.projectId, key: 'fits.now', actor: p.actor });
    const restore = await domainError(restoreKey(core.deps, { projectId: p.projectId, keyId: seeded!.id, actor: p.actor }), 'plan_limit');
    expect(restore.data).toMatchObject({ resource: 'keys', limit: 250, current: 250 });
  });
});

describe('updateKey', () => {
  it('records before and after of the changed fields; a description can be cleared with null', async () => {
    const p = await core.newProject();
    const key = await createKey(core.deps, { projectId: p.projectId, key: 'k', description: 'old', actor: p.actor });
    const since = await core.lastEventId();
    const updated = await updateKey(core.deps, { projectId: p.projectId, keyId: key.id, group_name: 'Moved', actor: p.actor });
    expect(updated).toEqual({ id: key.id, project_id: p.projectId, updated: true, group_name: 'Moved', tags: [], max_length: null });
    await updateKey(core.deps, { projectId: p.projectId, keyId: key.id, description: null, actor: p.actor });
    const events = await core.events({ projectId: p.projectId }, since);
    expect(events.map((e) => [e.type, e.entity_id, e.before, e.after])).toEqual([
      ['key.updated', key.id, { group_name: 'Default', description: 'old', tags: [], max_length: null }, { group_name: 'Moved', description: 'old', tags: [], max_length: null }],
      ['key.updated', key.id, { group_name: 'Moved', description: 'old', tags: [], max_length: null }, { group_name: 'Moved', description: null, tags: [], max_length: null }],
    ]);
  });

  it('refuses an update that changes nothing, and a deleted key is not found', async () => {
    const p = await core.newProject();
    const key = await createKey(core.deps, { projectId: p.projectId, key: 'k', actor: p.actor });
    await domainError(updateKey(core.deps, { projectId: p.projectId, keyId: key.id, actor: p.actor }), 'validation');
    await deleteKey(core.deps, { projectId: p.projectId, keyId: key.id, actor: p.actor });
    await domainError(updateKey(core.deps, { projectId: p.projectId, keyId: key.id, group_name: 'X', actor: p.actor }), 'not_found');
  });
});

describe('deleteKey and restoreKey', () => {
  it('soft-deletes (hidden from lists and reads, values kept) and restores with the values', async () => {
    const p = await core.newProject();
    await addLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor });
    const key = await createKey(core.deps, { projectId: p.projectId, key: 'k', group_name: 'g', actor: p.actor });
    await putTranslation(core.deps, { projectId: p.projectId, keyId: key.id, language: 'de', value: 'Wert', status: 'approved', actor: p.actor });
    const since = await core.lastEventId();

    await deleteKey(core.deps, { projectId: p.projectId, keyId: key.id, actor: p.actor });
    expect((await listKeys(core.deps, { projectId: p.projectId })).keys).toEqual([]);
    await domainError(readKey(core.deps, { projectId: p.projectId, language: 'de', group: 'g', key: 'k' }), 'not_found');
    await domainError(deleteKey(core.deps, { projectId: p.projectId, keyId: key.id, actor: p.actor }), 'not_found');

    expect(await restoreKey(core.deps, { projectId: p.projectId, keyId: key.id, actor: p.actor })).toEqual(key);
    expect(await liveJson(readKey(core.deps, { projectId: p.projectId, language: 'de', group: 'g', key: 'k' }))).toMatchObject({ value: 'Wert' });
    await domainError(restoreKey(core.deps, { projectId: p.projectId, keyId: key.id, actor: p.actor }), 'not_found');

    const events = await core.events({ projectId: p.projectId }, since);
    expect(events.map((e) => [e.type, e.entity_id, e.before, e.after])).toEqual([
      ['key.deleted', key.id, { key: 'k', group_name: 'g' }, null],
      ['key.restored', key.id, null, key],
    ]);
  });
});

describe('isolation between projects', () => {
  it("never lists, updates, deletes or restores another project's key, whatever ids are passed", async () => {
    const a = await core.newProject();
    const b = await core.newProject();
    const key = await createKey(core.deps, { projectId: a.projectId, key: 'secret', description: 'a', actor: a.actor });
    const gone = await createKey(core.deps, { projectId: a.projectId, key: 'gone', actor: a.actor });
    await deleteKey(core.deps, { projectId: a.projectId, keyId: gone.id, actor: a.actor });
    const since = await core.lastEventId();

    expect((await listKeys(core.deps, { projectId: b.projectId })).keys).toEqual([]);
    await domainError(updateKey(core.deps, { projectId: b.projectId, keyId: key.id, description: 'b', actor: b.actor }), 'not_found');
    await domainError(deleteKey(core.deps, { projectId: b.projectId, keyId: key.id, actor: b.actor }), 'not_found');
    await domainError(restoreKey(core.deps, { projectId: b.projectId, keyId: gone.id, actor: b.actor }), 'not_found');
    // The same name is free in the other project.
    await createKey(core.deps, { projectId: b.projectId, key: 'secret', actor: b.actor });

    const [listed] = (await listKeys(core.deps, { projectId: a.projectId })).keys;
    expect(listed).toMatchObject({ id: key.id, key: 'secret', description: 'a' });
    expect(await liveKeyCount(core.deps, a.projectId)).toBe(1);
    expect(await core.events({ projectId: a.projectId }, since)).toEqual([]);
  });
});
