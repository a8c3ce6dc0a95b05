// A rebuild that was accepted is never lost (issue 12), tried as a user would: `npm start` as a
// child process, killed with SIGKILL, stopped with SIGTERM or Ctrl-C, restarted on the same data
// dir (and the same database: embedded PGlite by default, a fresh real Postgres database when
// DATABASE_URL is set). No hooks into the server: a build is made to fail by putting a file where
// the object store's directory goes, and made slow by giving it a project of 20,000 values.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_FAILED_MESSAGE } from '../../core/cache/build-state.ts';
import { startLocalServer, type LocalServer } from './local-server-process.ts';
import { ADMIN_TOKEN, call, cleanUpPlaces, newProject, place, type Project } from './durable-place.ts';

afterAll(cleanUpPlaces);

async function status(server: LocalServer, p: Project) {
  const res = await call(server, p, 'GET', '/v1/cache/status');
  expect(res.status).toBe(200);
  return res.json();
}

async function statusUntil(server: LocalServer, p: Project, done: (s: Record<string, unknown>) => boolean, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const s = await status(server, p);
    if (done(s)) return s;
    if (Date.now() > deadline) throw new Error(`status never matched: ${JSON.stringify(s)}\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const built = (s: Record<string, unknown>) => s.ready === true && s.pending === false && s.build_state === 'idle';

describe('rebuild durability of npm start', () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    env = await place();
  });

  it('a failing build shows as failed; killed with SIGKILL, the request survives and the restarted server builds it', async () => {
    const first = await startLocalServer(env);
    const p = await newProject(first);
    // The filesystem object store cannot make its directory: every build fails (even for root).
    await rm(join(env.TMS_DATA_DIR!, 'objects'), { recursive: true, force: true });
    await writeFile(join(env.TMS_DATA_DIR!, 'objects'), 'not a directory');

    expect((await call(first, p, 'POST', '/v1/cache/rebuild')).status).toBe(202);
    // Right after the 202: pending, never the "ready: false, nothing to see" of before.
    expect(await status(first, p)).toMatchObject({ ready: false, last_rebuilt_at: null, pending: true });
    const failed = await statusUntil(first, p, (s) => s.build_state === 'failed');
    expect(failed).toEqual({
      project_id: p.projectId,
      last_rebuilt_at: null,
      ready: false,
      pending: true,
      build_state: 'failed',
      failed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      last_error: BUILD_FAILED_MESSAGE,
    });
    // The cause is in the log, not in the answer.
    expect(first.output()).toMatch(/"msg":"rebuild failed"/);
    expect(JSON.stringify(failed)).not.toContain(env.TMS_DATA_DIR!);

    first.kill('SIGKILL');
    await first.exited();
    await rm(join(env.TMS_DATA_DIR!, 'objects'), { force: true });

    // Nobody asks again: the restarted server finds the request and builds it.
    const second = await startLocalServer(env);
    const done = await statusUntil(second, p, built);
    expect(done).toMatchObject({ ready: true, failed_at: null, last_error: null, last_rebuilt_at: expect.any(String) });
    const cached = await call(second, p, 'GET', '/v1/cached/translations/de/group0/group0.key0');
    expect(await cached.json()).toEqual({ value: 'Wert 0' });
    await second.stop();
  }, 120_000);

  it('an auto rebuild held for its quiet time survives SIGKILL right after the write', async () => {
    const first = await startLocalServer({ ...env, AUTO_REBUILD_DEBOUNCE_MS: '300' });
    const p = await newProject(first);
    const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
    expect((await fetch(`${first.url}/admin/v1/projects/${p.projectId}`, { method: 'PATCH', headers: admin, body: JSON.stringify({ auto_rebuild: true }) })).status).toBe(200);
    const keys = await (await call(first, p, 'GET', '/v1/keys?limit=1')).json();
    const keyId = keys.keys[0].id as string;
    expect((await call(first, p, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Neu', status: 'approved' })).status).toBe(200);
    // Killed well within the 300 ms debounce: its timer dies with the process.
    first.kill('SIGKILL');
    await first.exited();

    const second = await startLocalServer(env);
    // Held for ten debounces (3 s) after the write, then built by whoever runs.
    const done = await statusUntil(second, p, built);
    expect(done.ready).toBe(true);
    const cached = await call(second, p, 'GET', `/v1/cached/translations/de/${keys.keys[0].group_name}/${encodeURIComponent(keys.keys[0].key)}`);
    expect(await cached.json()).toEqual({ value: 'Neu' });
    await second.stop();
  }, 120_000);

  it('SIGTERM during a build says what it waits for, finishes the build, and exits 0', async () => {
    // A bound far above the build's time even on a loaded machine: this test is about waiting.
    const first = await startLocalServer({ ...env, SHUTDOWN_TIMEOUT_MS: '120000' });
    const p = await newProject(first, 20_000);
    expect((await call(first, p, 'POST', '/v1/cache/rebuild')).status).toBe(202);
    await first.waitForOutput(/"msg":"rebuild started"/);
    first.kill('SIGTERM');
    await first.waitForOutput(/Shutting down: waiting for 1 build to finish \(at most 120 s\)/);
    expect(first.output()).toMatch(/"msg":"shutting down","signal":"SIGTERM","requests_in_flight":0,"builds_running":1/);
    expect(await first.exited()).toBe(0);
    expect(first.output()).toMatch(/"msg":"cache built"/);
    expect(first.output()).toMatch(/"msg":"shut down"/);

    const second = await startLocalServer(env);
    // Built before the exit: ready at once, nothing pending.
    expect(built(await status(second, p))).toBe(true);
    await second.stop();
  }, 180_000);

  it('a second Ctrl-C exits at once, and the next start builds what was left', async () => {
    const first = await startLocalServer(env);
    const p = await newProject(first, 20_000);
    expect((await call(first, p, 'POST', '/v1/cache/rebuild')).status).toBe(202);
    await first.waitForOutput(/"msg":"rebuild started"/);
    first.kill('SIGINT');
    await first.waitForOutput(/Press Ctrl-C again to exit now/);
    first.kill('SIGINT');
    expect(await first.exited()).toBe(1);
    expect(first.output()).toMatch(/Exiting now/);
    expect(first.output()).not.toMatch(/"msg":"cache built"/);

    const second = await startLocalServer(env);
    await statusUntil(second, p, built, 60_000);
    await second.stop();
  }, 180_000);
});
