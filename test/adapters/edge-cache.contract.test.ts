// The EdgeCache port's contract, run against each adapter: CloudFront (against the REST/XML
// emulator) and none (self-hosted, embedded). A valid batch is accepted, a retry with the same
// reference too; a batch no edge accepts is refused by both alike, before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EdgeCache } from '../../core/ports/edge-cache.ts';
import { MAX_INVALIDATION_PATHS } from '../../core/ports/edge-cache.ts';
import { createCloudFrontClient, createCloudFrontEdgeCache } from '../../core/adapters/edge-cache-cloudfront.ts';
import { createNoEdgeCache } from '../../core/adapters/edge-cache-none.ts';
import { startCloudFrontEmulator, type CloudFrontEmulator } from '../support/cloudfront-emulator.ts';

let cloudfront: CloudFrontEmulator;
beforeAll(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'TEST';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'TEST';
  cloudfront = await startCloudFrontEmulator({ distributions: ['ECONTRACT'] });
});
afterAll(async () => {
  await cloudfront?.close();
});

const adapters: [string, () => EdgeCache, () => number][] = [
  ['cloudfront', () => createCloudFrontEdgeCache({ distributionId: 'ECONTRACT', client: createCloudFrontClient({ endpoint: cloudfront.endpoint }) }), () => cloudfront.invalidations().length],
  ['none', () => createNoEdgeCache(), () => 0],
];

describe.each(adapters)('EdgeCache: %s', (name, make, sent) => {
  it('accepts a batch of exact and wildcard paths, and its retry with the same reference', async () => {
    const edge = make();
    const paths = ['/v1/cached/manifest', '/v1/cached/translations/de', '/v1/cached/translations/de/*'];
    await edge.invalidate(paths, `${name}-ok`);
    await edge.invalidate(paths, `${name}-ok`);
  });

  it('refuses what no edge accepts, sending nothing', async () => {
    const edge = make();
    const before = sent();
    for (const paths of [[], ['no-slash'], ['/a*b'], ['/with space'], ['/q?x=1'], Array.from({ length: MAX_INVALIDATION_PATHS + 1 }, (_, i) => `/p${i}`)]) {
      await expect(edge.invalidate(paths, `${name}-bad`), JSON.stringify(paths).slice(0, 40)).rejects.toThrow();
    }
    expect(sent()).toBe(before);
  });
});
