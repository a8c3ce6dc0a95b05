// docs/operations.md, "auto_rebuild": "a process killed within the debounce loses nothing: the held
// request is built once its time has passed, by whoever runs". With two replicas, the other
// replica's debounce timer made the shared held request due and built it early; the first replica
// kept writing inside its own hold window (heldUntil, in memory), so its later writes recorded no
// new held request and relied on its in-process timer alone: killed before that timer fired, they
// were never built. Each process's hold is its own now (migration 026). Runs on real PostgreSQL
// (DATABASE_URL): two processes cannot share the embedded database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newProject, sleep, startReplicas, waitFor, type Replicas } from '../support/replicas.ts';
import { usingRealPostgres } from '../support/test-database.ts';

const DEBOUNCE_MS = 400; // hold = 4 s

let r: Replicas;
beforeAll(async () => {
  if (usingRealPostgres()) r = await startReplicas(2, { AUTO_REBUILD_DEBOUNCE_MS: String(DEBOUNCE_MS), REBUILD_POLL_MS: '50' });
});
afterAll(async () => {
  await r?.close();
});

describe.skipIf(!usingRealPostgres())('auto_rebuild across replicas', () => {
  it('a write on replica A after replica B built the shared hold is still built after A dies', async () => {
    const [a, b] = r.replicas as [NonNullable<(typeof r.replicas)[0]>, NonNullable<(typeof r.replicas)[0]>];
    const p = await newProject(a);
    expect((await a.admin('PATCH', `/projects/${p.projectId}`, { auto_rebuild: true })).status).toBe(200);
    expect((await a.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    const k1 = (await (await a.call(p.apiKey, 'POST', '/v1/keys', { key: 'k1', group_name: 'g' })).json()) as { id: string };
    const k2 = (await (await a.call(p.apiKey, 'POST', '/v1/keys', { key: 'k2', group_name: 'g' })).json()) as { id: string };
    // Let the setup's own auto rebuilds settle first (everything built, nothing pending).
    await sleep(DEBOUNCE_MS * 2);
    await r.replicas[0]!.runtime.rebuilds!.due();
    await waitFor(async () => {
      const s = (await (await b.call(p.apiKey, 'GET', '/v1/cache/status')).json()) as { pending: boolean; ready: boolean };
      return s.ready && !s.pending;
    }, 15_000, 'setup builds');

    const put = (via: typeof a, keyId: string, value: string) =>
      via.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value, status: 'approved' });

    // B writes once and pauses: its timer fires after DEBOUNCE_MS and makes the shared hold due.
    expect((await put(b, k1.id, 'b')).status).toBe(200);
    // A writes continuously (each write resets A's timer, A's hold window lasts 10 debounces).
    let last = '';
    for (let i = 0; i < 12; i++) {
      last = `a${i}`;
      expect((await put(a, k2.id, last)).status).toBe(200);
      await sleep(DEBOUNCE_MS / 2);
    }
    // B's build (made due by B's timer) has run meanwhile.
    const status = (await (await b.call(p.apiKey, 'GET', '/v1/cache/status')).json()) as { pending: boolean };
    // "Kill" A before its own debounce timer fires: its database pool is gone, so the timer's
    // request cannot be recorded (as with kill -9, nothing of A's memory survives).
    await a.runtime.deps.sql.end({ timeout: 0 });

    // Well past the hold (10 debounces) and B's polls.
    await sleep(DEBOUNCE_MS * 10 + 2_000);
    const cached = await b.call(p.apiKey, 'GET', `/v1/cached/translations/de/g/k2`);
    const body = (await cached.json()) as { value: string };
    const after = (await (await b.call(p.apiKey, 'GET', '/v1/cache/status')).json()) as { pending: boolean };
    // The last write A answered 200 for must reach the cache (or at least still be pending).
    expect({ cached: body.value, pendingAfterKill: status.pending, pendingNow: after.pending }).toEqual(
      expect.objectContaining({ cached: last }),
    );
  }, 60_000);
});
