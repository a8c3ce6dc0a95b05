// After a build, the builder invalidates at the edge exactly the mutable cached paths whose content
// changed (core/cache/edge-invalidation.ts), through the EdgeCache port's CloudFront adapter, here
// against the CloudFront emulator (test/support/cloudfront-emulator.ts, the real REST/XML protocol).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudFrontServiceException } from '@aws-sdk/client-cloudfront';
import { createCloudFrontClient, createCloudFrontEdgeCache } from '../../core/adapters/edge-cache-cloudfront.ts';
import type { EdgeCache } from '../../core/ports/edge-cache.ts';
import { requestRebuild } from '../../core/cache/request-rebuild.ts';
import { readPointer } from '../../core/cache/read-pointer.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { removeLanguage } from '../../core/languages/remove-language.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { renameGroup } from '../../core/groups/rename-group.ts';
import { startCloudFrontEmulator, type CloudFrontEmulator } from '../support/cloudfront-emulator.ts';
import { useCore, type CoreProject } from '../core/support/core-harness.ts';

const DISTRIBUTION = 'E1EDGETEST';
let cloudfront: CloudFrontEmulator;
let adapter: EdgeCache;
// The harness assembles its deps before the emulator has a port: the edge it is given delegates.
const core = useCore({ edge: { invalidate: (paths, reference) => adapter.invalidate(paths, reference) } });

beforeAll(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'TEST';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'TEST';
  cloudfront = await startCloudFrontEmulator({ distributions: [DISTRIBUTION] });
  adapter = createCloudFrontEdgeCache({ distributionId: DISTRIBUTION, client: createCloudFrontClient({ endpoint: cloudfront.endpoint }) });
});
afterAll(async () => {
  await cloudfront?.close();
});

async function build(p: CoreProject): Promise<string> {
  await requestRebuild(core.deps, { projectId: p.projectId, actor: p.actor });
  await core.build(core.sent.at(-1)!);
  return (await readPointer(core.deps.objects, p.projectId))!.build_id;
}

/** The paths of the invalidation a build made (its CallerReference is the build id). */
const invalidatedBy = (buildId: string) => cloudfront.invalidations(DISTRIBUTION).find((i) => i.callerReference === buildId)?.paths;

async function projectIn(languages: string[]) {
  const p = await core.newProject('team');
  for (const code of languages) await addLanguage(core.deps, { projectId: p.projectId, code, actor: p.actor });
  const ids: Record<string, string> = {};
  for (const key of ['home.title', 'nav.back']) {
    ids[key] = (await createKey(core.deps, { projectId: p.projectId, key, group_name: key.split('.')[0], actor: p.actor })).id;
    for (const code of languages) {
      await putTranslation(core.deps, { projectId: p.projectId, keyId: ids[key]!, language: code, value: `${key} ${code}`, status: 'approved', actor: p.actor });
    }
  }
  return { p, ids };
}

describe('the CloudFront adapter', () => {
  it('creates one invalidation with the paths, and a retry with the same reference is answered with the same one', async () => {
    const before = cloudfront.invalidations().length;
    await adapter.invalidate(['/v1/cached/manifest', '/v1/cached/translations/de', '/v1/cached/translations/de/*'], 'ref-1');
    await adapter.invalidate(['/v1/cached/manifest', '/v1/cached/translations/de', '/v1/cached/translations/de/*'], 'ref-1');
    const made = cloudfront.invalidations().slice(before);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ distributionId: DISTRIBUTION, callerReference: 'ref-1', paths: ['/v1/cached/manifest', '/v1/cached/translations/de', '/v1/cached/translations/de/*'] });
  });

  it("surfaces CloudFront's errors (an unknown distribution, a reused reference with other paths)", async () => {
    const other = createCloudFrontEdgeCache({ distributionId: 'ENOSUCH', client: createCloudFrontClient({ endpoint: cloudfront.endpoint }) });
    const error = await other.invalidate(['/v1/cached/manifest'], 'ref-2').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CloudFrontServiceException);
    expect((error as CloudFrontServiceException).name).toBe('NoSuchDistribution');
    await expect(adapter.invalidate(['/v1/cached/translations/fr'], 'ref-1')).rejects.toMatchObject({ name: 'InvalidationBatchAlreadyExists' });
  });

  it('refuses paths no edge accepts before calling CloudFront', async () => {
    const before = cloudfront.invalidations().length;
    await expect(adapter.invalidate(['v1/cached/manifest'], 'ref-3')).rejects.toThrow("must start with '/'");
    await expect(adapter.invalidate(['/v1/*/manifest'], 'ref-4')).rejects.toThrow("'*' may only end");
    await expect(adapter.invalidate([], 'ref-5')).rejects.toThrow('at least one path');
    expect(cloudfront.invalidations().length).toBe(before);
  });
});

describe('what a build invalidates', () => {
  it('the first build: the manifest and every language', async () => {
    const { p } = await projectIn(['de', 'en']);
    const first = await build(p);
    expect(invalidatedBy(first)).toEqual([
      '/v1/cached/manifest',
      '/v1/cached/translations/de*',
      '/v1/cached/translations/en*',
    ]);
  });

  it('a build that changes only de invalidates only de and the manifest; one with no change only the manifest', async () => {
    const { p, ids } = await projectIn(['de', 'en', 'fr']);
    await build(p);
    await putTranslation(core.deps, { projectId: p.projectId, keyId: ids['nav.back']!, language: 'de', value: 'Zurück', status: 'approved', actor: p.actor });
    // A new key with only a draft in fr changes nothing the cache serves.
    const extra = await createKey(core.deps, { projectId: p.projectId, key: 'extra.x', group_name: 'extra', actor: p.actor });
    await putTranslation(core.deps, { projectId: p.projectId, keyId: extra.id, language: 'fr', value: 'brouillon', status: 'draft', actor: p.actor });
    const second = await build(p);
    expect(invalidatedBy(second)).toEqual(['/v1/cached/manifest', '/v1/cached/translations/de*']);
    const third = await build(p);
    expect(invalidatedBy(third)).toEqual(['/v1/cached/manifest']);
  });

  it('a renamed group changes group paths of every language (not the whole files); a removed language is invalidated too', async () => {
    const { p } = await projectIn(['de', 'en']);
    await build(p);
    await renameGroup(core.deps, { projectId: p.projectId, name: 'nav', newName: 'navigation', actor: p.actor });
    const renamed = await build(p);
    expect(invalidatedBy(renamed)).toEqual([
      '/v1/cached/manifest',
      '/v1/cached/translations/de*',
      '/v1/cached/translations/en*',
    ]);
    await removeLanguage(core.deps, { projectId: p.projectId, code: 'en', actor: p.actor });
    const removed = await build(p);
    expect(invalidatedBy(removed)).toEqual(['/v1/cached/manifest', '/v1/cached/translations/en*']);
  });

  it('an edge that fails does not fail the build: it is published, and the failure logged', async () => {
    const { p, ids } = await projectIn(['de']);
    await build(p);
    await putTranslation(core.deps, { projectId: p.projectId, keyId: ids['home.title']!, language: 'de', value: 'Neu', status: 'approved', actor: p.actor });
    cloudfront.failNext({ status: 503, code: 'ServiceUnavailable' }, { status: 503, code: 'ServiceUnavailable' }, { status: 503, code: 'ServiceUnavailable' });
    const built = await build(p);
    expect((await readPointer(core.deps.objects, p.projectId))!.build_id).toBe(built);
    expect(core.log.lines.some((l) => l.msg === 'edge cache not invalidated' && l.build_id === built)).toBe(true);
  });
});
