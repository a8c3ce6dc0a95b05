// auto_rebuild's hold (core/cache/auto-rebuild.ts, migration 026): the first write of a process's
// quiet period records a hold due after ten debounces, and the period's later writes record
// nothing, trusting it. The hold was a request in cache_state, which a build made early for any
// other reason (another replica's timer, a rebuild asked for) covered: a process that then died
// before its timer fired left its later writes unbuilt, with `pending: false`. A hold now stays
// until its time or until its own process's timer replaces it.
import { describe, expect, it, vi } from 'vitest';
import { systemActor } from '../../core/actor.ts';
import { holdRebuild, requestRebuild } from '../../core/cache/request-rebuild.ts';
import { useTestApp } from '../support/test-app.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();
const TIMER = systemActor('auto-rebuild');

describe('an auto_rebuild hold', () => {
  it("outlives a build made early for another process, so the writes it stands for are built if its process dies", async () => {
    const p = await project(t, ['de']);
    const id = await p.key('home.title', 'home');
    const deps = t.runtime.deps;
    const cached = async () => {
      const res = await p.get(`/v1/cached/translations/de/home/home.title`);
      return res.status === 200 ? ((await res.json()) as { value: string }).value : res.status;
    };

    // Process A's first write of a quiet period, and its hold.
    await p.put(id, 'de', 'eins', 'approved');
    await holdRebuild(deps, p.projectId, 'process-a', 60_000);
    // Process B's timer fires (its own edits paused): a request, built at once.
    await requestRebuild(deps, { projectId: p.projectId, actor: TIMER, releaseHold: 'process-b' });
    await vi.waitFor(async () => expect(await cached()).toBe('eins'), { timeout: 10_000 });

    // A writes on within its hold, recording nothing, and dies before its timer fires.
    await p.put(id, 'de', 'zwei', 'approved');
    expect((await body(await p.get('/v1/cache/status'))).pending).toBe(true);

    // The hold's time comes (made due here): built by whichever process runs.
    await t.runtime.rebuilds!.due();
    await t.runtime.rebuilds!.idle();
    expect(await cached()).toBe('zwei');
    expect((await body(await p.get('/v1/cache/status'))).pending).toBe(false);
  });

  it('is replaced by its own timer: one request, and nothing left pending after its build', async () => {
    const p = await project(t, ['de']);
    const id = await p.key('home.title', 'home');
    await p.put(id, 'de', 'eins', 'approved');
    const left = await holdRebuild(t.runtime.deps, p.projectId, 'process-a', 60_000);
    expect(left).toBeGreaterThan(59_000);
    // A second hold of the same process keeps the first one's time.
    expect(await holdRebuild(t.runtime.deps, p.projectId, 'process-a', 600_000)).toBeLessThanOrEqual(left);
    await requestRebuild(t.runtime.deps, { projectId: p.projectId, actor: TIMER, releaseHold: 'process-a' });
    await t.runtime.rebuilds!.idle();
    const status = await body(await p.get('/v1/cache/status'));
    expect([status.ready, status.pending, status.build_state]).toEqual([true, false, 'idle']);
    const [holds] = await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from rebuild_holds where project_id = ${p.projectId}`;
    expect(holds!.n).toBe(0);
  });
});
