// How long a replaced build stays readable (core/cache/build-project-cache.ts): the build it replaced
// always, and any build replaced less than an hour ago (a client's manifest from a minute ago still
// resolves); older builds, and leftovers of failed builds once as old, are collected.
import { describe, expect, it } from 'vitest';
import { requestRebuild } from '../../core/cache/request-rebuild.ts';
import { REPLACED_BUILD_RETENTION_MS, MAX_KEPT_BUILDS } from '../../core/cache/build-project-cache.ts';
import { cachedBuildGroup, cachedBuildLanguage } from '../../core/cache/read-cached.ts';
import { buildsPrefix, indexKey, languageKey } from '../../core/cache/layout.ts';
import { readPointer } from '../../core/cache/read-pointer.ts';
import { createCacheReader } from '../../core/cache/cache-reader.ts';
import { silentLogger } from '../../core/log.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { domainError, useCore, type CoreProject } from '../core/support/core-harness.ts';

let now = Date.parse('2026-06-01T08:00:00.000Z');
const core = useCore({ clock: { now: () => new Date(now) } });
const MINUTE = 60_000;

async function build(p: CoreProject): Promise<string> {
  await requestRebuild(core.deps, { projectId: p.projectId, actor: p.actor });
  await core.build(core.sent.at(-1)!);
  return (await readPointer(core.deps.objects, p.projectId))!.build_id;
}

const storedBuilds = async (p: CoreProject) =>
  [...new Set((await core.deps.objects.list(buildsPrefix(p.projectId))).map((key) => key.slice(buildsPrefix(p.projectId).length).split('/')[0]))].sort();

async function project(languages: Record<string, string> = { de: 'Hallo' }) {
  const p = await core.newProject('team');
  for (const code of Object.keys(languages)) await addLanguage(core.deps, { projectId: p.projectId, code, actor: p.actor });
  const key = await createKey(core.deps, { projectId: p.projectId, key: 'home.title', group_name: 'home', actor: p.actor });
  for (const [language, value] of Object.entries(languages)) {
    await putTranslation(core.deps, { projectId: p.projectId, keyId: key.id, language, value, status: 'approved', actor: p.actor });
  }
  return p;
}

describe('replaced builds', () => {
  it('stay readable for an hour after they were replaced; then go, except the build just replaced', async () => {
    const p = await project();
    const a = await build(p);
    now += MINUTE;
    const b = await build(p); // replaces a
    now += MINUTE;
    const c = await build(p); // replaces b
    expect(await storedBuilds(p)).toEqual([a, b, c]);
    // A client holding the manifest that named a (two builds ago) still reads its file.
    expect((await cachedBuildLanguage(core.deps, { projectId: p.projectId, buildId: a, language: 'de' })).entry.etag).toMatch(/^"/);

    // An hour after b replaced a: a goes at the next build; b was replaced by c 59 minutes ago.
    now += REPLACED_BUILD_RETENTION_MS - MINUTE;
    const d = await build(p);
    expect(await storedBuilds(p)).toEqual([b, c, d]);
    // Collected: a 404 on this server, which had read a's file above, as on any other.
    await domainError(cachedBuildLanguage(core.deps, { projectId: p.projectId, buildId: a, language: 'de' }), 'not_found');
    const otherServer = { cache: createCacheReader({ objects: core.deps.objects, log: silentLogger }) };
    await domainError(cachedBuildLanguage(otherServer, { projectId: p.projectId, buildId: a, language: 'de' }), 'not_found');
    expect((await cachedBuildLanguage(otherServer, { projectId: p.projectId, buildId: b, language: 'de' })).entry.etag).toMatch(/^"/);

    // Much later: only the current build and the one it replaced, however old.
    now += 5 * REPLACED_BUILD_RETENTION_MS;
    const e = await build(p);
    expect(await storedBuilds(p)).toEqual([d, e]);
  });

  it(`keeps at most ${MAX_KEPT_BUILDS} builds when a project builds often`, async () => {
    const p = await project();
    const ids: string[] = [];
    for (let i = 0; i < MAX_KEPT_BUILDS + 3; i++) {
      now += 1000;
      ids.push(await build(p));
    }
    expect(await storedBuilds(p)).toEqual(ids.slice(-MAX_KEPT_BUILDS));
  });

  it('leftovers of a failed build go once older than the retention window', async () => {
    const p = await project();
    await build(p);
    // What a build that died after uploading one file leaves behind.
    const stamp = new Date(now).toISOString().replace(/[-:.]/g, '');
    const failed = `${stamp}-0badf00d`;
    await core.deps.objects.put(languageKey(p.projectId, failed, 'de', 'identity'), Buffer.from('{}'));
    now += MINUTE;
    await build(p);
    expect(await storedBuilds(p)).toContain(failed);
    now += REPLACED_BUILD_RETENTION_MS;
    await build(p);
    expect(await storedBuilds(p)).not.toContain(failed);
  });

  it('an older build publishing while a newer one is being written leaves the newer one whole', async () => {
    // Two replicas build one project (a builder whose lease lapsed mid-upload, and the one that took
    // over): the newer build has written its files and index but not published when the older one
    // publishes (the database records no newer build yet) and collects.
    const p = await project();
    for (let i = 0; i < MAX_KEPT_BUILDS; i++) {
      now += 1000;
      await build(p);
    }
    const newer = `${new Date(now + 2000).toISOString().replace(/[-:.]/g, '')}-0ddba11c`;
    await core.deps.objects.put(languageKey(p.projectId, newer, 'de', 'identity'), Buffer.from('{"home.title":"Hallo"}'));
    await core.deps.objects.put(indexKey(p.projectId, newer), Buffer.from('{}'));
    now += 1000;
    const older = await build(p);
    expect(older < newer).toBe(true);
    expect(await storedBuilds(p)).toContain(newer);
    const left = await core.deps.objects.list(`${buildsPrefix(p.projectId)}${newer}/`);
    expect(left.sort()).toEqual([indexKey(p.projectId, newer), languageKey(p.projectId, newer, 'de', 'identity')].sort());
    // The older build still keeps to the limit among its own and older builds.
    expect((await storedBuilds(p)).filter((id) => id! <= older)).toHaveLength(MAX_KEPT_BUILDS);
  });

  it('a build collected by the build limit is a 404 for every file, on a server that read some of them as on any other', async () => {
    const p = await project({ de: 'Hallo', en: 'Hello', fr: 'Bonjour' });
    now += 1000;
    const a = await build(p);
    const read = (cache: { cache: typeof core.deps.cache }, language: string) => cachedBuildLanguage(cache, { projectId: p.projectId, buildId: a, language });
    // This server has read a's index and de's file; another one (its pointer trusted for a second) too.
    let otherNow = now;
    const other = { cache: createCacheReader({ objects: core.deps.objects, log: silentLogger, pointerTtlMs: 1000, now: () => otherNow }) };
    for (const server of [core.deps, other]) await (await read(server, 'de')).load('identity');
    for (let i = 0; i < MAX_KEPT_BUILDS; i++) {
      now += 1000;
      await build(p);
    }
    expect(await storedBuilds(p)).not.toContain(a);

    // The builder's own process learns of the new pointer at once: every file of a is a 404, the one
    // read before (index and bytes still in memory) as well as those never read.
    for (const language of ['de', 'en']) {
      const error = await domainError(read(core.deps, language), 'not_found');
      expect(error.message).toContain(`Build '${a}'`);
      expect(error.message).toContain('no longer kept');
      expect(error.message).toContain('manifest again');
      expect(error.message).not.toContain('over an hour');
    }
    await domainError(cachedBuildGroup(core.deps, { projectId: p.projectId, buildId: a, language: 'fr', group: 'home' }), 'not_found');

    // Another server whose pointer (naming a) is still within its second: a file it never read is
    // a 404 (not a 500: it reads the pointer afresh and finds a no longer kept), and once its
    // pointer is revalidated, so is the file it had read.
    const never = await read(other, 'en');
    await domainError(never.load('identity'), 'not_found');
    otherNow += 1000;
    await domainError(read(other, 'de'), 'not_found');
    // A restarted server: the same.
    const restarted = { cache: createCacheReader({ objects: core.deps.objects, log: silentLogger }) };
    for (const language of ['de', 'en']) await domainError(read(restarted, language), 'not_found');
    // The pointer names the builds still kept (decided before it was published); a is not among them.
    const pointer = (await readPointer(core.deps.objects, p.projectId))!;
    expect(pointer.kept).toEqual((await storedBuilds(p)).sort());
    expect(pointer.kept).not.toContain(a);
  });
});
