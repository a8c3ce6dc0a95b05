// GET /v1/cache/status beside the spec's fields: pending once a request is recorded, failed (with a public
// message and no internals) when a build fails, on the SQS builder as on the local worker, and
// idle with the failure cleared once a build succeeds. The worker is stopped so that the test
// decides when builds run (the builder entry's handler stands in for the Lambda).
import { describe, expect, it } from 'vitest';
import { handleRebuildRecords } from '../../functions/builder/handle-records.ts';
import { BUILD_FAILED_MESSAGE } from '../../core/cache/build-state.ts';
import { startTestApp } from '../support/test-app.ts';
import { seed } from '../support/cache-helpers.ts';

describe('cache status shows a pending and a failed build', () => {
  it('pending after the 202, failed after a failed build, idle after a good one', async () => {
    const t = await startTestApp();
    try {
      await t.runtime.rebuilds!.close();
      const p = await t.newProject();
      await seed(t, p, { 'home.title': { de: ['Hallo', 'approved'] } });
      const status = async () => (await t.call(p.apiKey, 'GET', '/v1/cache/status')).json();
      expect(await status()).toEqual({
        project_id: p.projectId, last_rebuilt_at: null, ready: false, pending: false, build_state: 'idle', failed_at: null, last_error: null,
      });

      // The app's queue is closed: the request is recorded as the route would, then built by hand.
      const [row] = await t.runtime.deps.sql<{ seq: number }[]>`
        insert into cache_state (project_id, requested_seq) values (${p.projectId}, 1) returning requested_seq::int as seq`;
      expect(await status()).toMatchObject({ ready: false, pending: true, build_state: 'queued', failed_at: null });

      const record = { messageId: 'm1', body: JSON.stringify({ projectId: p.projectId, seq: row!.seq }) };
      const failing = await handleRebuildRecords(t.runtime.deps, [record], {
        build: async () => {
          throw new Error('connect ECONNREFUSED 10.0.0.7:5432');
        },
      });
      expect(failing.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
      const failed = await status();
      expect(failed).toMatchObject({ ready: false, pending: true, build_state: 'failed', last_error: BUILD_FAILED_MESSAGE, failed_at: expect.any(String) });
      expect(JSON.stringify(failed)).not.toContain('10.0.0.7');

      expect((await handleRebuildRecords(t.runtime.deps, [record])).batchItemFailures).toEqual([]);
      t.runtime.deps.cache.invalidate(p.projectId);
      expect(await status()).toMatchObject({ ready: true, pending: false, build_state: 'idle', failed_at: null, last_error: null });
    } finally {
      await t.close();
    }
  });
});
