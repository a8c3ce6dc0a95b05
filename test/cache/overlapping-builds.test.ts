// Two builds of one project that overlap: possible across replicas when a builder's lease lapses
// (its process lost the database for longer than the 30 s lease while uploading) and another takes
// the project over. The snapshot's advisory lock covers only the snapshot, so the older build can
// reach its publish after the newer one has published. It must not then replace the newer build:
// the cached reads would go back to older data while the status says nothing is pending.
import { describe, expect, it } from 'vitest';
import { buildProjectCache } from '../../core/cache/build-project-cache.ts';
import { requestRebuild } from '../../core/cache/request-rebuild.ts';
import { readPointer } from '../../core/cache/read-pointer.ts';
import { languageKey, pointerKey } from '../../core/cache/layout.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import { useCore } from '../core/support/core-harness.ts';

const core = useCore();

describe('overlapping builds of one project', () => {
  for (const newRequest of [true, false]) {
  it(`an older build finishing after a newer one published does not replace it (${newRequest ? 'a newer request' : 'the same request, taken over'})`, async () => {
    const p = await core.newProject('team');
    await addLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor });
    const key = await createKey(core.deps, { projectId: p.projectId, key: 'home.title', group_name: 'home', actor: p.actor });
    const write = (value: string) => putTranslation(core.deps, { projectId: p.projectId, keyId: key.id, language: 'de', value, status: 'approved', actor: p.actor });
    await write('Alt');
    await requestRebuild(core.deps, { projectId: p.projectId, actor: p.actor });
    const older = core.sent.at(-1)!;

    // The older build is held just after its snapshot (at its index), while the newer one runs whole.
    let held = false;
    const objects: ObjectStore = {
      ...core.deps.objects,
      async put(key, body, options) {
        if (!held && key.endsWith('/index.json')) {
          held = true;
          await write('Neu');
          if (newRequest) await requestRebuild(core.deps, { projectId: p.projectId, actor: p.actor });
          await core.build(core.sent.at(-1)!);
        }
        return core.deps.objects.put(key, body, options);
      },
    };
    const result = await buildProjectCache({ ...core.deps, objects }, older);
    expect(held).toBe(true);
    expect(result.status).toBe('skipped');

    const pointer = (await readPointer(core.deps.objects, p.projectId))!;
    expect(pointer.seq).toBe(newRequest ? older.seq + 1 : older.seq);
    // What the cached reads serve is the newer snapshot's value.
    const file = await core.deps.objects.get(languageKey(p.projectId, pointer.build_id, 'de', 'identity', 'default'));
    expect(file.kind).toBe('found');
    expect(JSON.parse(Buffer.from((file as { object: { body: Uint8Array } }).object.body).toString('utf8')).translations).toEqual({ 'home.title': 'Neu' });
    const [state] = await core.deps.sql<{ built_seq: number }[]>`select built_seq::int from cache_state where project_id = ${p.projectId}`;
    expect(state!.built_seq).toBe(pointer.seq);
  });
  }

  it('after a restore from a backup, a pointer left from the lost history does not stop the next build', async () => {
    const p = await core.newProject('team');
    await addLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor });
    await requestRebuild(core.deps, { projectId: p.projectId, actor: p.actor });
    await core.build(core.sent.at(-1)!);
    // The store still names a build of requests the restored database never saw.
    const stale = (await readPointer(core.deps.objects, p.projectId))!;
    await core.deps.objects.put(pointerKey(p.projectId), Buffer.from(JSON.stringify({ ...stale, seq: 99 })), { contentType: 'application/json' });
    await requestRebuild(core.deps, { projectId: p.projectId, actor: p.actor });
    const next = core.sent.at(-1)!;
    expect(next.seq).toBeLessThan(99);
    await core.build(next);
    expect((await readPointer(core.deps.objects, p.projectId))!.seq).toBe(next.seq);
    const [state] = await core.deps.sql<{ pending: boolean }[]>`select requested_seq > built_seq as pending from cache_state where project_id = ${p.projectId}`;
    expect(state!.pending).toBe(false);
  });
});
