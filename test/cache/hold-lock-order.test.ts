// auto_rebuild's hold and the requests and claims beside it take their row locks in one order:
// the project's cache_state row, then its rebuild_holds row. holdRebuild took them the other way
// (its cache_state insert, a data-modifying CTE the statement never read, ran after the hold's
// upsert), so a write renewing its process's hold while that process's timer replaced the hold
// with a request (cache_state, then the hold) deadlocked: "auto rebuild not queued: deadlock
// detected", seen in the concurrent mix on PostgreSQL. Real PostgreSQL only: PGlite serves one
// connection at a time, so nothing there waits on a lock.
import { describe, expect, it, vi } from 'vitest';
import { holdRebuild } from '../../core/cache/request-rebuild.ts';
import { usingRealPostgres } from '../support/test-database.ts';
import { useTestApp } from '../support/test-app.ts';
import { project } from '../translations/helpers.ts';

const t = useTestApp();

describe('an auto_rebuild hold renewed while a request replaces it', () => {
  it.runIf(usingRealPostgres())('waits for the request instead of deadlocking with it, and both succeed', async () => {
    const p = await project(t, ['de']);
    const { sql } = t.runtime.deps;
    const holder = 'process-a';
    await holdRebuild(t.runtime.deps, p.projectId, holder, 60_000);

    // The timer's request, as requestRebuild runs it: the project's cache_state row, then the hold.
    let renewal: Promise<number> | undefined;
    await sql.begin(async (tx) => {
      await tx`update cache_state set requested_seq = requested_seq + 1 where project_id = ${p.projectId}`;
      // Meanwhile a write of the same process renews its hold, and must wait for this transaction.
      let settled = false;
      renewal = holdRebuild(t.runtime.deps, p.projectId, holder, 60_000).finally(() => (settled = true));
      // Until it waits on a lock (on this transaction's row, or, taken in the wrong order, on a row
      // of its own that this transaction is about to want) or has finished without waiting.
      await vi.waitFor(
        async () => {
          const [waiting] = await sql<{ n: number }[]>`
            select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and (query like '%rebuild_holds%' or query like '%cache_state%')`;
          expect(settled || waiting!.n === 1).toBe(true);
        },
        { timeout: 10_000, interval: 20 },
      );
      await tx`delete from rebuild_holds where project_id = ${p.projectId} and holder = ${holder}`;
    });
    // The renewal went on after the request's commit: a fresh hold of its own.
    expect(await renewal).toBeGreaterThan(59_000);
    const holds = await sql`select holder from rebuild_holds where project_id = ${p.projectId}`;
    expect(holds.map((h) => h.holder)).toEqual([holder]);
    const [state] = await sql<{ seq: number }[]>`select requested_seq::int as seq from cache_state where project_id = ${p.projectId}`;
    expect(state!.seq).toBeGreaterThan(0);
  });
});
