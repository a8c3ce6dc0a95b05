// core/cache called directly: a rebuild request is recorded (sequence and event) before it is
// queued; a build serves exactly the approved values as of its snapshot, the manifest stored once;
// a covered request is skipped; the cached reads never show another project's build.
import { describe, expect, it } from 'vitest';
import { requestRebuild } from '../../core/cache/request-rebuild.ts';
import { buildProjectCache } from '../../core/cache/build-project-cache.ts';
import { cachedGroup, cachedLanguage, cachedManifest, cachedValue, cacheStatus } from '../../core/cache/read-cached.ts';
import { contentHash } from '../../core/cache/encode-variants.ts';
import { buildPrefix, buildsPrefix, manifestKey } from '../../core/cache/layout.ts';
import { readPointer } from '../../core/cache/read-pointer.ts';
import { readManifest } from '../../core/manifest/read-manifest.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { domainError, useCore, type CoreProject } from './support/core-harness.ts';

const core = useCore();

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

async function projectWithValues() {
  const p = await core.newProject('team');
  await addLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor });
  const ids: Record<string, string> = {};
  for (const [key, status] of [['home.title', 'approved'], ['home.draft', 'draft'], ['nav.back', 'approved']] as const) {
    const k = await createKey(core.deps, { projectId: p.projectId, key, group_name: key.split('.')[0], actor: p.actor });
    await putTranslation(core.deps, { projectId: p.projectId, keyId: k.id, language: 'de', value: `${key} (de)`, status, actor: p.actor });
    ids[key] = k.id;
  }
  return { p, ids };
}

async function rebuild(p: CoreProject) {
  await requestRebuild(core.deps, { projectId: p.projectId, actor: p.actor });
  const message = core.sent.at(-1)!;
  await core.build(message);
  return message;
}

describe('requestRebuild', () => {
  it('bumps the sequence, records cache.rebuild_requested with the actor, and queues the new sequence after commit', async () => {
    const p = await core.newProject();
    const since = await core.lastEventId();
    const sentBefore = core.sent.length;
    const answer = await requestRebuild(core.deps, { projectId: p.projectId, actor: p.actor });
    expect(answer).toMatchObject({ project_id: p.projectId, status: 'queued' });
    await requestRebuild(core.deps, { projectId: p.projectId, actor: { type: 'system', id: 'test' } });
    expect(core.sent.slice(sentBefore)).toEqual([
      { projectId: p.projectId, seq: 1 },
      { projectId: p.projectId, seq: 2 },
    ]);
    const events = await core.events({ projectId: p.projectId }, since);
    expect(events.map((e) => [e.type, e.entity_type, e.entity_id, e.actor_type, e.actor_id, e.after])).toEqual([
      ['cache.rebuild_requested', 'cache', p.projectId, 'api_key', p.apiKeyId, { seq: 1 }],
      ['cache.rebuild_requested', 'cache', p.projectId, 'system', 'test', { seq: 2 }],
    ]);
    // Seen by the builder when the message arrives: the request is committed before it is sent.
    const [state] = await core.deps.sql<{ requested_seq: number }[]>`
      select requested_seq::int from cache_state where project_id = ${p.projectId}`;
    expect(state?.requested_seq).toBe(2);
  });

  it('refuses a malformed project or actor, queuing nothing', async () => {
    const p = await core.newProject();
    const sentBefore = core.sent.length;
    await domainError(requestRebuild(core.deps, { projectId: 'x', actor: p.actor }), 'validation');
    await domainError(requestRebuild(core.deps, { projectId: p.projectId, actor: { type: 'system', id: '' } }), 'validation');
    expect(core.sent.length).toBe(sentBefore);
  });
});

describe('builds and cached reads', () => {
  it('is not ready before the first build; then serves the approved values as of the build, and the manifest stored once', async () => {
    const { p, ids } = await projectWithValues();
    expect(await cacheStatus(core.deps, { projectId: p.projectId })).toEqual({
      project_id: p.projectId,
      last_rebuilt_at: null,
      ready: false,
      pending: false,
      build_state: 'idle',
      failed_at: null,
      last_error: null,
    });
    await domainError(cachedLanguage(core.deps, { projectId: p.projectId, language: 'de' }), 'not_ready');

    const since = await core.lastEventId();
    const message = await rebuild(p);
    const status = await cacheStatus(core.deps, { projectId: p.projectId });
    expect(status).toMatchObject({ ready: true, last_rebuilt_at: expect.any(String), pending: false, build_state: 'idle' });

    const language = await cachedLanguage(core.deps, { projectId: p.projectId, language: 'de' });
    expect(JSON.parse(text(await language.load('identity')))).toEqual({
      project_id: p.projectId,
      language: 'de',
      status_filter: 'approved',
      count: 2,
      translations: { 'home.title': 'home.title (de)', 'nav.back': 'nav.back (de)' },
    });
    const group = await cachedGroup(core.deps, { projectId: p.projectId, language: 'de', group: 'home' });
    expect(JSON.parse(text(await group.load('identity'))).translations).toEqual({ 'home.title': 'home.title (de)' });
    expect(JSON.parse((await cachedValue(core.deps, { projectId: p.projectId, language: 'de', group: 'nav', key: 'nav.back' })).body)).toEqual({
      value: 'nav.back (de)',
    });
    await domainError(cachedValue(core.deps, { projectId: p.projectId, language: 'de', group: 'home', key: 'home.draft' }), 'not_found');

    // The manifest: the live one as of the build, plus the build and each language's versioned URL
    // and ETag; one identity object whose etag is its content's hash.
    const manifest = await cachedManifest(core.deps, { projectId: p.projectId });
    const manifestBytes = await manifest.load('identity');
    const pointer = (await readPointer(core.deps.objects, p.projectId))!;
    const live = await readManifest(core.deps, { projectId: p.projectId });
    const de = await cachedLanguage(core.deps, { projectId: p.projectId, language: 'de' });
    expect(JSON.parse(text(manifestBytes))).toEqual({
      ...live,
      build_id: pointer.build_id,
      built_at: pointer.built_at,
      languages: live.languages.map((l) => ({
        ...l,
        url: `/v1/cached/builds/${pointer.build_id}/translations/${l.code}`,
        etag: l.code === 'de' ? de.entry.etag : expect.stringMatching(/^"[\w-]{27}"$/),
      })),
    });
    expect(manifest.entry.etag).toBe(`"${contentHash(manifestBytes)}"`);
    const stored = await core.deps.objects.list(buildPrefix(p.projectId, pointer.build_id));
    expect(stored.filter((key) => key.includes('manifest'))).toEqual([manifestKey(p.projectId, pointer.build_id)]);

    // The builder's own event, as the system.
    expect((await core.events({ projectId: p.projectId }, since)).filter((e) => e.type === 'cache.built')).toEqual([
      expect.objectContaining({
        actor_type: 'system',
        actor_id: 'builder',
        entity_id: p.projectId,
        after: { build_id: pointer.build_id, seq: message.seq, built_at: pointer.built_at },
      }),
    ]);

    // Writes after the build are not served until the next one.
    await putTranslation(core.deps, { projectId: p.projectId, keyId: ids['home.draft']!, language: 'de', value: 'jetzt', status: 'approved', actor: p.actor });
    await domainError(cachedValue(core.deps, { projectId: p.projectId, language: 'de', group: 'home', key: 'home.draft' }), 'not_found');
    await rebuild(p);
    expect(JSON.parse((await cachedValue(core.deps, { projectId: p.projectId, language: 'de', group: 'home', key: 'home.draft' })).body)).toEqual({
      value: 'jetzt',
    });
  });

  it('skips a request an earlier build already covered, and keeps builds replaced within the hour', async () => {
    const { p } = await projectWithValues();
    const first = await rebuild(p);
    expect(await buildProjectCache(core.deps, first)).toEqual({ status: 'skipped', reason: 'covered' });
    await rebuild(p);
    await rebuild(p);
    const builds = new Set((await core.deps.objects.list(buildsPrefix(p.projectId))).map((key) => key.slice(buildsPrefix(p.projectId).length).split('/')[0]));
    // Retention (core/cache/build-project-cache.ts): a client holding a manifest from a minute ago
    // still finds its build. Collection after the hour: test/cache/build-retention.test.ts.
    expect(builds.size).toBe(3);
    expect(builds.has((await readPointer(core.deps.objects, p.projectId))!.build_id)).toBe(true);
  });

  it("never serves another project's build", async () => {
    const { p: a } = await projectWithValues();
    const b = await core.newProject('team');
    await rebuild(a);
    expect(await cacheStatus(core.deps, { projectId: b.projectId })).toMatchObject({ ready: false });
    await domainError(cachedLanguage(core.deps, { projectId: b.projectId, language: 'de' }), 'not_ready');
    await domainError(cachedValue(core.deps, { projectId: b.projectId, language: 'de', group: 'home', key: 'home.title' }), 'not_ready');
    await domainError(cachedManifest(core.deps, { projectId: b.projectId }), 'not_ready');
    // Built too, B serves its own (empty) content, not A's.
    await rebuild(b);
    await domainError(cachedLanguage(core.deps, { projectId: b.projectId, language: 'de' }), 'not_found');
    expect(JSON.parse(text(await (await cachedManifest(core.deps, { projectId: b.projectId })).load('identity')))).toMatchObject({
      project_id: b.projectId,
      languages: [],
    });
  });
});
