// The pipeline's guarantees: bursts coalesce, builds are idempotent, publishing is atomic, a failed
// build leaves the previous one serving, and auto_rebuild queues debounced builds after writes.
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../core/log.ts';
import { buildProjectCache } from '../../core/cache/build-project-cache.ts';
import { buildsPrefix } from '../../core/cache/layout.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import { startTestApp, useTestApp } from '../support/test-app.ts';
import { rebuild, seed } from '../support/cache-helpers.ts';

const log = createMemoryLogger();
const t = useTestApp({ log });
const idle = () => t.runtime.rebuilds!.idle();
const builds = (projectId: string) => log.lines.filter((l) => l.msg === 'cache built' && l.project_id === projectId);

describe('coalescing', () => {
  it('ten rebuild calls in a burst give at most two builds', async () => {
    const p = await t.newProject('team');
    const ids = await seed(t, p, { 'home.title': { de: ['v0', 'approved'] } });
    await t.call(p.apiKey, 'PUT', `/v1/keys/${ids['home.title']}/translations/de`, { value: 'v1', status: 'approved' });
    const calls = await Promise.all(Array.from({ length: 10 }, () => t.call(p.apiKey, 'POST', '/v1/cache/rebuild')));
    expect(calls.every((r) => r.status === 202)).toBe(true);
    await idle();
    expect(builds(p.projectId).length).toBeGreaterThanOrEqual(1);
    expect(builds(p.projectId).length).toBeLessThanOrEqual(2);
    expect(await (await t.call(p.apiKey, 'GET', '/v1/cached/translations/de/home/home.title')).json()).toEqual({ value: 'v1' });
  });

  it('the last build includes every write committed before the last call, even while a build runs', async () => {
    const p = await t.newProject('team');
    const ids = await seed(t, p, { 'home.title': { de: ['v0', 'approved'] } });
    const posts = [];
    for (let i = 1; i <= 10; i++) {
      await t.call(p.apiKey, 'PUT', `/v1/keys/${ids['home.title']}/translations/de`, { value: `v${i}`, status: 'approved' });
      posts.push(t.call(p.apiKey, 'POST', '/v1/cache/rebuild'));
    }
    expect((await Promise.all(posts)).every((r) => r.status === 202)).toBe(true);
    await idle();
    expect(await (await t.call(p.apiKey, 'GET', '/v1/cached/translations/de/home/home.title')).json()).toEqual({ value: 'v10' });
  });

  it('a request already covered by a later build is skipped; the builder is idempotent', async () => {
    const p = await t.newProject();
    await seed(t, p, { 'home.title': { de: ['Hallo', 'approved'] } });
    await rebuild(t, p);
    const deps = t.runtime.deps;
    const [state] = await deps.sql`select built_seq::int as seq from cache_state where project_id = ${p.projectId}`;
    const again = await buildProjectCache(deps, { projectId: p.projectId, seq: state!.seq });
    expect(again).toEqual({ status: 'skipped', reason: 'covered' });
    const unknown = await buildProjectCache(deps, { projectId: crypto.randomUUID(), seq: 1 });
    expect(unknown).toEqual({ status: 'skipped', reason: 'no-project' });
  });
});

describe('atomic publishing', () => {
  it('readers during builds always get one whole build: never an error, never a mix', async () => {
    const p = await t.newProject('team');
    const keys = Array.from({ length: 40 }, (_, i) => `home.k${String(i).padStart(2, '0')}`);
    const ids = await seed(t, p, Object.fromEntries(keys.map((k) => [k, { de: ['v0', 'approved'] }])));
    await rebuild(t, p);
    let reading = true;
    const seen = new Set<string>();
    const reader = (async () => {
      while (reading) {
        // The cached path is served from memory: in-process calls never wait on I/O, so yield to it.
        await new Promise((r) => setImmediate(r));
        const [lang, group] = await Promise.all([
          t.call(p.apiKey, 'GET', '/v1/cached/translations/de'),
          t.call(p.apiKey, 'GET', '/v1/cached/translations/de/home'),
        ]);
        expect(lang.status).toBe(200);
        expect(group.status).toBe(200);
        for (const body of [await lang.json(), await group.json()]) {
          // Every build writes all 40 values with one version: a body mixing two would show two.
          const versions = new Set(Object.values(body.translations as Record<string, string>));
          expect(versions.size).toBe(1);
          expect(body.count).toBe(40);
          seen.add([...versions][0]!);
        }
      }
    })();
    const sql = t.runtime.deps.sql;
    for (let version = 1; version <= 4; version++) {
      await sql`update translations set value = ${'v' + version} where project_id = ${p.projectId}`;
      await rebuild(t, p);
    }
    reading = false;
    await reader;
    expect(seen.size).toBeGreaterThan(1);
    expect(Object.keys(ids)).toHaveLength(40);
  });

  it('a build that fails part-way leaves the previous build serving, and its leftovers are kept within the retention window', async () => {
    const failing = await startTestApp();
    try {
      const p = await failing.newProject();
      // Two languages: the first one's upload fails while the snapshot reads the second.
      await seed(failing, p, { 'home.title': { de: ['Erste', 'approved'], fr: ['Premier', 'approved'] } });
      await rebuild(failing, p);
      // From here the test drives the builder by hand: the worker must not build the request itself.
      await failing.runtime.rebuilds!.close();
      const objects = failing.runtime.deps.objects;
      let puts = 0;
      const flaky: ObjectStore = {
        ...objects,
        put: async (key, body, options) => {
          if (++puts === 3) throw new Error('disk full');
          return objects.put(key, body, options);
        },
      };
      const deps = { ...failing.runtime.deps, objects: flaky };
      await failing.runtime.deps.sql`update translations set value = 'Zweite' where project_id = ${p.projectId}`;
      const [row] = await failing.runtime.deps.sql`update cache_state set requested_seq = requested_seq + 1 where project_id = ${p.projectId} returning requested_seq::int as seq`;
      await expect(buildProjectCache(deps, { projectId: p.projectId, seq: row!.seq })).rejects.toThrow('disk full');
      expect(await (await failing.call(p.apiKey, 'GET', '/v1/cached/translations/de/home/home.title')).json()).toEqual({ value: 'Erste' });
      const buildIds = async () => new Set((await objects.list(buildsPrefix(p.projectId))).map((k) => k.split('/')[3]));
      expect((await buildIds()).size).toBe(2); // the serving build and the failed one's leftovers
      // A retry of the same message builds and publishes. The failed build's leftovers could belong to
      // a build still being written: they go only once older than the retention window
      // (test/cache/build-retention.test.ts collects them).
      await buildProjectCache(failing.runtime.deps, { projectId: p.projectId, seq: row!.seq });
      failing.runtime.deps.cache.invalidate(p.projectId);
      expect(await (await failing.call(p.apiKey, 'GET', '/v1/cached/translations/de/home/home.title')).json()).toEqual({ value: 'Zweite' });
      expect((await buildIds()).size).toBe(3);
    } finally {
      await failing.close();
    }
  });
});

describe('auto_rebuild', () => {
  it('off by default; when on, a burst of writes queues one debounced rebuild', async () => {
    // A debounce longer than a PUT can take on a loaded CI machine (PGlite): at 150 ms a slow PUT
    // mid-burst let the timer fire between writes, and the burst cost two builds.
    const app = await startTestApp({ env: { AUTO_REBUILD_DEBOUNCE_MS: '600' }, log });
    try {
      const p = await app.newProject();
      const ids = await seed(app, p, { 'home.title': { de: ['Hallo', 'approved'] } });
      await new Promise((r) => setTimeout(r, 400));
      expect(await (await app.call(p.apiKey, 'GET', '/v1/cache/status')).json()).toMatchObject({ ready: false });

      expect((await app.admin('PATCH', `/projects/${p.projectId}`, { auto_rebuild: true })).status).toBe(200);
      for (const value of ['a', 'b', 'c', 'd']) {
        await app.call(p.apiKey, 'PUT', `/v1/keys/${ids['home.title']}/translations/de`, { value, status: 'approved' });
      }
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && !(await (await app.call(p.apiKey, 'GET', '/v1/cache/status')).json()).ready) {
        await new Promise((r) => setTimeout(r, 50));
      }
      await app.runtime.rebuilds!.idle();
      expect(await (await app.call(p.apiKey, 'GET', '/v1/cached/translations/de/home/home.title')).json()).toEqual({ value: 'd' });
      expect(builds(p.projectId)).toHaveLength(1);
      // Reads do not trigger builds (waited for longer than the debounce).
      await app.call(p.apiKey, 'GET', '/v1/keys');
      await new Promise((r) => setTimeout(r, 1_000));
      await app.runtime.rebuilds!.idle();
      expect(builds(p.projectId)).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});

describe('database outage', () => {
  it('cached endpoints keep serving for API keys seen recently while the database is down', async () => {
    // No key cache TTL: every request must go to the database, which is what fails below.
    const app = await startTestApp({ env: { API_KEY_CACHE_SECONDS: '0' } });
    try {
      const p = await app.newProject();
      await seed(app, p, { 'home.title': { de: ['Hallo', 'approved'] } });
      await rebuild(app, p);
      expect((await app.call(p.apiKey, 'GET', '/v1/cached/translations/de')).status).toBe(200);
      const stranger = await app.newProject();
      await app.runtime.deps.sql.end(); // the database is gone for this process

      for (const path of ['/v1/cached/translations/de', '/v1/cached/translations/de/home', '/v1/cached/translations/de/home/home.title', '/v1/cached/manifest']) {
        expect((await app.call(p.apiKey, 'GET', path)).status, path).toBe(200);
      }
      // Live endpoints need the database: 500 with the envelope. A key never verified is not let in.
      const live = await app.call(p.apiKey, 'GET', '/v1/translations/de');
      expect(live.status).toBe(500);
      expect(typeof (await live.json()).detail).toBe('string');
      expect((await app.call(stranger.apiKey, 'GET', '/v1/cached/manifest')).status).toBe(500);
    } finally {
      await app.close();
    }
  });
});
