// How long a replaced build stays readable (core/cache/build-project-cache.ts): the build it replaced
// always, and any build replaced less than an hour ago (a client's manifest from a minute ago still
// resolves); older builds, and leftovers of failed builds once as old, are collected.
import { describe, expect, it } from 'vitest';
import { requestRebuild } from '../../core/cache/request-rebuild.ts';
import { REPLACED_BUILD_RETENTION_MS, MAX_KEPT_BUILDS } from '../../core/cache/build-project-cache.ts';
import { cachedBuildLanguage } from '../../core/cache/read-cached.ts';
import { buildsPrefix, languageKey } from '../../core/cache/layout.ts';
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

async function project() {
  const p = await core.newProject('team');
  await addLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor });
  const key = await createKey(core.deps, { projectId: p.projectId, key: 'home.title', group_name: 'home', actor: p.actor });
  await putTranslation(core.deps, { projectId: p.projectId, keyId: key.id, language: 'de', value: 'Hallo', status: 'approved', actor: p.actor });
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
    // A server that had read a keeps it in memory (its files are immutable: harmless); any other finds nothing.
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
});
