// The SDK against a real tms over HTTP: first load, 304 revalidation, one request for concurrent
// identical calls, new-build events, the last good copy when offline (from localStorage-like
// storage and from a directory in a fresh client; stored entries of the wrong shape count as none),
// a hung server costing one timeout, 404 on a gone build URL, 503 before the first build, final 4xx.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, TmsError, type BuildEvent } from '../../sdk/src/index.ts';
import { fileStorage } from '../../sdk/src/node.ts';
import { countingFetch, memoryStorage, useSdkServer, withoutBuildUrls } from './sdk-server.ts';

const s = useSdkServer();
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const VALUES = {
  'home.title': { de: 'Willkommen', en: 'Welcome' },
  'home.body': { de: 'Schön, dass du da bist', en: 'Glad you are here' },
  'menu.open': { de: 'Öffnen', en: 'Open' },
};

const fileRequests = <T extends { path: string }>(calls: T[]) => calls.filter((c) => c.path.includes('/translations/'));
const manifestRequests = (calls: { path: string }[]) => calls.filter((c) => c.path === '/v1/cached/manifest');

describe('first load', () => {
  it("reads a language and a group from the build's immutable URLs that the manifest names", async () => {
    const p = await s.publishedProject(VALUES);
    const counting = countingFetch();
    const client = createClient({ url: s.url, key: p.apiKey, project: p.projectId, storage: false, fetch: counting.fetch });
    expect(await client.getTranslations('de')).toEqual({ 'home.title': 'Willkommen', 'home.body': 'Schön, dass du da bist', 'menu.open': 'Öffnen' });
    expect(await client.getTranslations('en', 'menu')).toEqual({ 'menu.open': 'Open' });
    const manifest = await client.getManifest();
    expect(manifest.project_id).toBe(p.projectId);
    expect(manifest.languages.map((l) => l.code).sort()).toEqual(['de', 'en']);
    const url = (code: string) => manifest.languages.find((l) => l.code === code)!.url!;
    expect(url('de')).toBe(`/v1/cached/builds/${manifest.build_id}/translations/de`);
    expect(fileRequests(counting.calls).map((c) => [c.path, c.status])).toEqual([[url('de'), 200], [`${url('en')}/menu`, 200]]);
  });

  it("a fetch passed in is called as a plain function, as a browser's window.fetch must be", async () => {
    // A browser's fetch called as a method of another object throws "Illegal invocation"; Node's
    // does not look, so this one does as the browser's does.
    const p = await s.publishedProject(VALUES);
    const strict = function (this: unknown, input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) {
      if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
      return fetch(input, init);
    } as typeof fetch;
    const client = createClient({ url: s.url, key: p.apiKey, storage: false, fetch: strict, timeout: 5_000 });
    expect(await client.getTranslations('de', 'menu')).toEqual({ 'menu.open': 'Öffnen' });
  });

  it('reads the mutable paths from a server without build URLs', async () => {
    const p = await s.publishedProject(VALUES);
    const counting = countingFetch(withoutBuildUrls());
    const client = createClient({ url: s.url, key: p.apiKey, storage: false, fetch: counting.fetch });
    expect((await client.getTranslations('de'))['home.title']).toBe('Willkommen');
    expect(await client.getTranslations('en', 'menu')).toEqual({ 'menu.open': 'Open' });
    expect(fileRequests(counting.calls).map((c) => c.path)).toEqual(['/v1/cached/translations/de', '/v1/cached/translations/en/menu']);
  });

  it("outside a browser no cache mode is sent (Cloudflare Workers throw on cache: 'no-cache'; test/sdk/browser-cache.test.ts has the browser's)", async () => {
    const p = await s.publishedProject(VALUES);
    const modes: unknown[] = [];
    const recording: typeof fetch = (input, init) => (modes.push((init as { cache?: unknown } | undefined)?.cache), fetch(input, init));
    for (const fetcher of [recording, withoutBuildUrls(recording)]) {
      await createClient({ url: s.url, key: p.apiKey, storage: false, fetch: fetcher }).getTranslations('de');
    }
    expect(modes).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("a project id that is not the key's is refused (403), not served", async () => {
    const p = await s.publishedProject(VALUES);
    const other = await s.newProject();
    const client = createClient({ url: s.url, key: p.apiKey, project: other.projectId, storage: false });
    await expect(client.getTranslations('de')).rejects.toMatchObject({ name: 'TmsError', status: 403 });
  });

  it("a 422's issues are in the error's message, not only in its detail", async () => {
    const p = await s.publishedProject(VALUES);
    // A server with build URLs is not asked for a language its manifest does not list (a 404).
    const client = createClient({ url: s.url, key: p.apiKey, storage: false, fetch: withoutBuildUrls() });
    const error = (await client.getTranslations('not_a_language_code_at_all').catch((e: unknown) => e)) as TmsError;
    expect(error).toBeInstanceOf(TmsError);
    expect(error.status).toBe(422);
    expect(Array.isArray(error.detail)).toBe(true);
    expect(error.message).toMatch(/^GET \S+: 422 path\.language: \S/);
  });
});

describe('revalidation', () => {
  it('with build URLs only the manifest is asked again (a 304); the file is served from the stored copy', async () => {
    const p = await s.publishedProject(VALUES);
    const counting = countingFetch();
    const storage = memoryStorage();
    const client = createClient({ url: s.url, key: p.apiKey, storage, fetch: counting.fetch });
    const first = await client.getTranslations('de');
    for (let i = 0; i < 3; i++) expect(await client.getTranslations('de')).toEqual(first);
    expect(fileRequests(counting.calls)).toHaveLength(1);
    const manifests = manifestRequests(counting.calls);
    expect(manifests).toHaveLength(4);
    expect(manifests[0]).toMatchObject({ status: 200, ifNoneMatch: null });
    for (const call of manifests.slice(1)) expect(call).toMatchObject({ status: 304, ifNoneMatch: expect.stringMatching(/^"[^"]+"$/) });

    // A fresh client on the same storage: no file request at all while the build is current.
    const fresh = countingFetch();
    expect(await createClient({ url: s.url, key: p.apiKey, storage, fetch: fresh.fetch }).getTranslations('de')).toEqual(first);
    expect(fresh.calls.map((c) => [c.path, c.status])).toEqual([['/v1/cached/manifest', 304]]);
  });

  it('without build URLs the file is asked again with If-None-Match; a 304 serves the stored copy', async () => {
    const p = await s.publishedProject(VALUES);
    const counting = countingFetch(withoutBuildUrls());
    const storage = memoryStorage();
    const client = createClient({ url: s.url, key: p.apiKey, storage, fetch: counting.fetch });
    const first = await client.getTranslations('de');
    const firstFile = fileRequests(counting.calls);
    expect(firstFile).toEqual([{ path: '/v1/cached/translations/de', status: 200, ifNoneMatch: null }]);
    const stored = [...storage.items.values()].map((v) => JSON.parse(v)).find((e) => e.u === '/v1/cached/translations/de');
    expect(stored.e).toMatch(/^"[^"]+"$/);

    for (let i = 0; i < 3; i++) expect(await client.getTranslations('de')).toEqual(first);
    const again = fileRequests(counting.calls).slice(1);
    expect(again).toHaveLength(3);
    for (const call of again) expect(call).toEqual({ path: '/v1/cached/translations/de', status: 304, ifNoneMatch: stored.e });
  });

  it('maxAge serves the held copy without a request, until a new build is seen', async () => {
    const p = await s.publishedProject(VALUES);
    const counting = countingFetch();
    const client = createClient({ url: s.url, key: p.apiKey, storage: false, fetch: counting.fetch, maxAge: 60_000 });
    await client.getTranslations('de');
    const before = counting.calls.length;
    await client.getTranslations('de');
    await client.getManifest();
    expect(counting.calls.length).toBe(before);
  });

  it('concurrent identical calls share one request', async () => {
    const p = await s.publishedProject(VALUES);
    for (const fetcher of [fetch, withoutBuildUrls()]) {
      const counting = countingFetch(fetcher);
      const client = createClient({ url: s.url, key: p.apiKey, storage: false, fetch: counting.fetch });
      const results = await Promise.all([...Array(5)].map(() => client.getTranslations('de')).concat([client.getTranslations('de', 'home')]));
      expect(new Set(results.slice(0, 5).map((r) => JSON.stringify(r))).size).toBe(1);
      expect(results[5]).toEqual({ 'home.title': 'Willkommen', 'home.body': 'Schön, dass du da bist' });
      expect(manifestRequests(counting.calls)).toHaveLength(1);
      expect(fileRequests(counting.calls)).toHaveLength(2);
    }
  });
});

describe('new builds', () => {
  it('a publish is seen on the next read: the event fires once and the new value is served', async () => {
    const p = await s.publishedProject(VALUES);
    for (const fetcher of [fetch, withoutBuildUrls()]) {
      const client = createClient({ url: s.url, key: p.apiKey, storage: false, fetch: fetcher });
      const events: BuildEvent[] = [];
      client.onBuild((e) => events.push(e));
      const before = (await client.getTranslations('de'))['home.title'];
      await client.getManifest();
      expect(events).toEqual([]);

      await s.publish(p, { 'home.title': { de: `${before}!` } });
      expect((await client.getTranslations('de'))['home.title']).toBe(`${before}!`);
      await client.getManifest();
      expect(events).toHaveLength(1);
      expect(events[0]!.build).not.toBe(events[0]!.previous);
      expect(events[0]!.manifest.project_id).toBe(p.projectId);
    }
  });

  it('a language the new build left alone is revalidated at its new URL (304), not downloaded again', async () => {
    const p = await s.publishedProject(VALUES);
    const counting = countingFetch();
    const client = createClient({ url: s.url, key: p.apiKey, storage: false, fetch: counting.fetch });
    const en = await client.getTranslations('en');
    await s.publish(p, { 'home.title': { de: 'Hallo' } });
    expect(await client.getTranslations('en')).toEqual(en);
    const [first, second] = fileRequests(counting.calls);
    expect(second!.path).not.toBe(first!.path);
    expect(second).toMatchObject({ status: 304, ifNoneMatch: expect.stringMatching(/^"/) });
  });

  it('polling sees a publish without being asked, and an unsubscribed listener hears nothing', async () => {
    const p = await s.publishedProject(VALUES);
    const client = createClient({ url: s.url, key: p.apiKey, storage: false, pollInterval: 50 });
    try {
      await client.getManifest();
      const seen = new Promise<BuildEvent>((resolve) => client.onBuild(resolve));
      const silent: BuildEvent[] = [];
      client.onBuild((e) => silent.push(e))();
      await s.publish(p, { 'menu.open': { de: 'Aufmachen' } });
      const event = await seen;
      expect(event.manifest.languages.map((l) => l.code)).toContain('de');
      expect(silent).toEqual([]);
      expect((await client.getTranslations('de'))['menu.open']).toBe('Aufmachen');
    } finally {
      client.close();
    }
  });

  it('polling asks the server even within maxAge', async () => {
    const p = await s.publishedProject(VALUES);
    const client = createClient({ url: s.url, key: p.apiKey, storage: false, maxAge: 600_000, pollInterval: 50 });
    try {
      await client.getTranslations('de');
      const seen = new Promise<BuildEvent>((resolve) => client.onBuild(resolve));
      await s.publish(p, { 'menu.open': { de: 'Aufmachen' } });
      const timeout = new Promise<string>((r) => setTimeout(() => r('no event'), 5_000));
      expect(await Promise.race([seen.then(() => 'event'), timeout])).toBe('event');
      // The new build ends maxAge early: the next read is the new value.
      expect((await client.getTranslations('de'))['menu.open']).toBe('Aufmachen');
    } finally {
      client.close();
    }
  });

  it('a 404 on a build URL (the build is gone) reads the manifest again, even within maxAge, and follows it', async () => {
    const p = await s.publishedProject(VALUES);
    const gone = new Set<string>();
    const cleaned: typeof fetch = async (input, init) =>
      [...gone].some((id) => String(input).includes(`/builds/${id}/`)) ? Response.json({ detail: 'not in the cache' }, { status: 404 }) : fetch(input, init);
    const counting = countingFetch(cleaned);
    const client = createClient({ url: s.url, key: p.apiKey, storage: false, fetch: counting.fetch, maxAge: 600_000 });
    const events: BuildEvent[] = [];
    client.onBuild((e) => events.push(e));
    await client.getTranslations('de');
    const old = (await client.getManifest()).build_id!;
    await s.publish(p, { 'home.title': { en: 'Hello' } });
    gone.add(old);
    expect((await client.getTranslations('en'))['home.title']).toBe('Hello');
    expect(events.map((e) => e.previous)).toEqual([old]);
    expect(manifestRequests(counting.calls)).toHaveLength(2);
    // A 404 the current build confirms (no such group) is final: one more manifest, no second try.
    const before = counting.calls.length;
    await expect(client.getTranslations('de', 'nope')).rejects.toMatchObject({ status: 404 });
    const after = counting.calls.slice(before);
    expect(fileRequests(after).map((c) => c.status)).toEqual([404]);
    expect(manifestRequests(after).at(-1)).toMatchObject({ status: 304 });
  });

  it('a fresh client remembers the build its storage last saw, and fires for a newer one', async () => {
    const p = await s.publishedProject(VALUES);
    const storage = memoryStorage();
    await createClient({ url: s.url, key: p.apiKey, storage }).getTranslations('de');
    await s.publish(p, { 'home.title': { de: 'Hallo' } });
    const fresh = createClient({ url: s.url, key: p.apiKey, storage });
    const events: BuildEvent[] = [];
    fresh.onBuild((e) => events.push(e));
    expect((await fresh.getTranslations('de'))['home.title']).toBe('Hallo');
    await fresh.getManifest();
    expect(events).toHaveLength(1);
  });
});

describe('offline', () => {
  it('serves the last good copy when the server is gone: from memory, and from localStorage-like storage in a fresh client', async () => {
    const p = await s.publishedProject(VALUES);
    const server = await s.listen();
    const storage = memoryStorage();
    const client = createClient({ url: server.url, key: p.apiKey, storage, retryDelay: 5 });
    const online = await client.getTranslations('de');
    const group = await client.getTranslations('de', 'menu');
    await server.stop();

    const counting = countingFetch();
    const offline = createClient({ url: server.url, key: p.apiKey, storage, retryDelay: 5, fetch: counting.fetch });
    expect(await client.getTranslations('de')).toEqual(online);
    expect(await offline.getTranslations('de')).toEqual(online);
    expect(await offline.getTranslations('de', 'menu')).toEqual(group);
    expect((await offline.getManifest()).project_id).toBe(p.projectId);
    // It did try the network (and found nobody), and did not wait through retries holding a copy.
    expect(counting.calls.length).toBeGreaterThan(0);
    expect(counting.calls.every((c) => c.status === 0)).toBe(true);

    const empty = createClient({ url: server.url, key: p.apiKey, storage: false, retryDelay: 5 });
    const error = await empty.getTranslations('de').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TmsError);
    expect(error).toMatchObject({ status: 0, message: expect.stringMatching(/cannot reach the server/) });
  });

  it('keeps the last good files in a directory for Node; a fresh client offline reads them', async () => {
    const p = await s.publishedProject(VALUES);
    const server = await s.listen();
    const dir = await mkdtemp(join(tmpdir(), 'tms-sdk-'));
    dirs.push(dir);
    const online = await createClient({ url: server.url, key: p.apiKey, storage: fileStorage(join(dir, 'cache')) }).getTranslations('en');
    expect(online['home.title']).toBe('Welcome');
    const files = await readdir(join(dir, 'cache'));
    expect(files.some((f) => f.endsWith('.tmp'))).toBe(false);
    expect(files.join(' ')).not.toContain(p.apiKey);
    await server.stop();

    const fresh = createClient({ url: server.url, key: p.apiKey, storage: fileStorage(join(dir, 'cache')), retryDelay: 5 });
    expect(await fresh.getTranslations('en')).toEqual(online);
  });

  // Group names may be 200 letters of any script: percent-encoded, a file name past 255 bytes.
  it.each([
    ['a 26-letter Japanese group', 'ユーザープロフィール設定画面のエラーメッセージと通知'],
    ['a 90-letter upper-case group', 'ACCOUNT_SETTINGS_NOTIFICATIONS_PREFERENCES_AND_PRIVACY_CONTROLS_FOR_ENTERPRISE_ADMINISTRATORS'],
    ['a 200-letter group', 'Ü'.repeat(200)],
  ])('%s read online is served from its directory by a fresh client with tms gone', async (_label, group) => {
    const p = await s.publishedProject({ [`${group}.title`]: { de: 'Titel' } });
    const server = await s.listen();
    const dir = await mkdtemp(join(tmpdir(), 'tms-sdk-'));
    dirs.push(dir);
    const online = await createClient({ url: server.url, key: p.apiKey, storage: fileStorage(dir) }).getTranslations('de', group);
    expect(online).toEqual({ [`${group}.title`]: 'Titel' });
    await server.stop();

    const fresh = createClient({ url: server.url, key: p.apiKey, storage: fileStorage(dir), retryDelay: 5 });
    expect(await fresh.getTranslations('de', group).catch((e: unknown) => e), `files kept: ${(await readdir(dir)).join(', ')}`).toEqual(online);
  });

  it.each(['{}', 'null', '[]', '"hello"', '{"u":"/v1/cached/manifest","b":{}}', '{"u":"/x","b":{"languages":[{}]}}'])(
    'a stored manifest of the wrong shape (%s) is as if nothing were stored: read online, and offline the file copies still serve',
    async (bad) => {
      const p = await s.publishedProject(VALUES);
      let target = s.url;
      const routed: typeof fetch = (input, init) => fetch(String(input).replace('http://tms.test', target), init);
      const make = (storage: ReturnType<typeof fileStorage>) => createClient({ url: 'http://tms.test', key: p.apiKey, storage, fetch: routed, retryDelay: 5 });
      const dir = await mkdtemp(join(tmpdir(), 'tms-sdk-'));
      dirs.push(dir);
      const local = memoryStorage();
      for (const storage of [local, fileStorage(dir)]) {
        target = s.url;
        const online = await make(storage).getTranslations('de');
        const manifestItem = [...local.items.keys()].find((k) => k.endsWith(':manifest'))!;
        await storage.setItem(manifestItem, bad);
        expect(await make(storage).getTranslations('de')).toEqual(online);
        await storage.setItem(manifestItem, bad);
        // A language file of the wrong shape counts as nothing stored too.
        const badFile = JSON.parse(bad)?.b ? '{"u":"/x","b":["not","an","object"]}' : bad; // {} is an empty file
        await storage.setItem(manifestItem.replace(/manifest$/, 'de/menu'), badFile);
        target = 'http://127.0.0.1:9';
        const offline = make(storage);
        expect(await offline.getTranslations('de')).toEqual(online);
        await expect(offline.getManifest()).rejects.toMatchObject({ status: 0 });
        await expect(offline.getTranslations('de', 'menu')).rejects.toMatchObject({ status: 0 });
      }
    },
  );

  it('serves the stored copy at once on a 5xx, without retrying', async () => {
    const p = await s.publishedProject(VALUES);
    let failWith = 0;
    const failing: typeof fetch = async (input, init) =>
      failWith ? new Response(JSON.stringify({ detail: 'down' }), { status: failWith }) : fetch(input, init);
    // With build URLs the failed manifest is the only request (the held build file is still
    // current); without them the file's own path is tried once too.
    for (const [fetcher, requests] of [[failing, 1], [withoutBuildUrls(failing), 2]] as const) {
      failWith = 0;
      const counting = countingFetch(fetcher);
      const client = createClient({ url: s.url, key: p.apiKey, storage: false, fetch: counting.fetch, retryDelay: 2000 });
      const online = await client.getTranslations('de');
      for (const status of [500, 502, 503]) {
        failWith = status;
        const started = Date.now();
        const before = counting.calls.length;
        expect(await client.getTranslations('de')).toEqual(online);
        expect(Date.now() - started).toBeLessThan(1000);
        expect(counting.calls.length - before).toBe(requests);
      }
    }
  });

});

// sdk/README.md: a stored manifest standing in for a server that cannot answer does not decide
// that a language is not in the build; only the server's manifest (or one held within maxAge) does.
describe('a language published after the stored manifest, while the server cannot answer', () => {
  it('offline: its mutable path is tried with the usual retries, then status 0, never a final 404 from the stored manifest', async () => {
    const p = await s.publishedProject(VALUES);
    const server = await s.listen();
    const counting = countingFetch();
    const client = createClient({ url: server.url, key: p.apiKey, storage: memoryStorage(), fetch: counting.fetch, retryDelay: 5 });
    expect((await client.getTranslations('de'))['home.title']).toBe('Willkommen');
    // French is added and published; the device goes offline before it reads French.
    await s.publish(p, { 'home.welcome': { fr: 'Bienvenue' } });
    await server.stop();

    const before = counting.calls.length;
    const error = await client.getTranslations('fr').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TmsError);
    expect(error).toMatchObject({ status: 0, message: expect.stringMatching(/^GET \/v1\/cached\/translations\/fr: cannot reach the server/) });
    // The manifest once (a copy is held: no retries), then French's mutable path, 3 attempts.
    expect(counting.calls.slice(before).map((c) => `${c.path} ${c.status}`)).toEqual([
      '/v1/cached/manifest 0',
      '/v1/cached/translations/fr 0',
      '/v1/cached/translations/fr 0',
      '/v1/cached/translations/fr 0',
    ]);
    // The held language is still served from its copy.
    expect((await client.getTranslations('de'))['home.title']).toBe('Willkommen');
  });

  it('a one-off 502 on the manifest: the new language is read from its mutable path, an unknown one is that path\'s 404', async () => {
    const p = await s.publishedProject(VALUES);
    let failManifest = 0;
    const flaky: typeof fetch = async (input, init) => {
      if (failManifest > 0 && new URL(String(input)).pathname === '/v1/cached/manifest') {
        failManifest--;
        return Response.json({ detail: 'Bad Gateway' }, { status: 502 });
      }
      return fetch(input, init);
    };
    const counting = countingFetch(flaky);
    const client = createClient({ url: s.url, key: p.apiKey, storage: memoryStorage(), fetch: counting.fetch, retryDelay: 5 });
    await client.getTranslations('de');
    await s.publish(p, { 'home.welcome': { fr: 'Bienvenue' } });

    failManifest = 1;
    let before = counting.calls.length;
    expect((await client.getTranslations('fr'))['home.welcome']).toBe('Bienvenue');
    expect(counting.calls.slice(before).map((c) => `${c.path} ${c.status}`)).toEqual(['/v1/cached/manifest 502', '/v1/cached/translations/fr 200']);

    // Not in the project: the server says so at the mutable path (a real, final 404).
    failManifest = 1;
    before = counting.calls.length;
    await expect(client.getTranslations('ja')).rejects.toMatchObject({ status: 404 });
    expect(counting.calls.slice(before).map((c) => `${c.path} ${c.status}`)).toEqual(['/v1/cached/manifest 502', '/v1/cached/translations/ja 404']);

    // The manifest answering again: French from its build URL, and an unknown language decided without a request.
    before = counting.calls.length;
    expect((await client.getTranslations('fr'))['home.welcome']).toBe('Bienvenue');
    expect(fileRequests(counting.calls.slice(before)).map((c) => c.path)).toEqual([expect.stringMatching(/^\/v1\/cached\/builds\/[^/]+\/translations\/fr$/)]);
    await expect(client.getTranslations('ja')).rejects.toMatchObject({ status: 404, message: expect.stringMatching(/'ja' is not in build/) });
    expect(fileRequests(counting.calls.slice(before))).toHaveLength(1);
  });
});

describe('a server that never answers', () => {
  it('counts as offline after the timeout: the stored copy, or status 0 when there is none', async () => {
    const p = await s.publishedProject(VALUES);
    // Accepts connections and says nothing, like a black-holed network.
    const sockets = new Set<Socket>();
    const silent = createNetServer((socket) => void sockets.add(socket));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      let target = s.url;
      const routed: typeof fetch = (input, init) => fetch(String(input).replace('http://tms.test', target), init);
      const storage = memoryStorage();
      const online = await createClient({ url: 'http://tms.test', key: p.apiKey, storage, fetch: routed }).getTranslations('de');
      target = silentUrl;
      const started = Date.now();
      const client = createClient({ url: 'http://tms.test', key: p.apiKey, storage, fetch: routed, timeout: 300 });
      expect(await client.getTranslations('de')).toEqual(online);
      expect(Date.now() - started).toBeLessThan(2_000);

      const empty = createClient({ url: 'http://tms.test', key: p.apiKey, storage: false, fetch: routed, timeout: 100, retryDelay: 5 });
      await expect(empty.getTranslations('de')).rejects.toMatchObject({ status: 0, message: expect.stringContaining('no answer within 100 ms') });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => silent.close(r));
    }
  });
});

describe('a server that hangs after answering', () => {
  it('one timeout is waited, then stored copies are served at once while one request in the background checks again', async () => {
    const p = await s.publishedProject(VALUES);
    const sockets = new Set<Socket>();
    const silent = createNetServer((socket) => void sockets.add(socket));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      let target = s.url;
      const counting = countingFetch((input, init) => fetch(String(input).replace('http://tms.test', target), init));
      const client = createClient({ url: 'http://tms.test', key: p.apiKey, storage: false, fetch: counting.fetch, timeout: 500 });
      const de = await client.getTranslations('de');
      const en = await client.getTranslations('en');
      target = silentUrl;
      let started = Date.now();
      expect(await client.getTranslations('de')).toEqual(de);
      expect(Date.now() - started).toBeGreaterThanOrEqual(450);
      const sent = counting.calls.length;
      started = Date.now();
      for (let i = 0; i < 5; i++) {
        expect(await client.getTranslations('de')).toEqual(de);
        expect(await client.getTranslations('en')).toEqual(en);
      }
      expect(Date.now() - started).toBeLessThan(400);
      // Ten reads sent one request: the background check (still hanging, so not counted yet).
      await new Promise((r) => setTimeout(r, 600));
      expect(counting.calls.length - sent).toBe(1);

      // The server back: the read that finds out serves the copy, the next ones the server's values.
      target = s.url;
      expect(await client.getTranslations('de')).toEqual(de);
      await s.publish(p, { 'home.title': { de: 'Hallo' } });
      expect((await client.getTranslations('de'))['home.title']).toBe('Hallo');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => silent.close(r));
    }
  });
});

describe('errors', () => {
  it('503 before the first build: retried with backoff, then a clear error', async () => {
    const p = await s.newProject();
    const counting = countingFetch();
    const client = createClient({ url: s.url, key: p.apiKey, storage: false, fetch: counting.fetch, retryDelay: 20 });
    const started = Date.now();
    const error = await client.getTranslations('de').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TmsError);
    expect((error as TmsError).status).toBe(503);
    expect((error as TmsError).message).toMatch(/503 .*rebuild/i);
    expect(counting.calls.map((c) => c.status)).toEqual([503, 503, 503]);
    // Backoff: about 20 ms, then about 40 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(15 + 30);
  });

  it('401, 404 are final: one request, no retry, and no stale copy hides them', async () => {
    const p = await s.publishedProject(VALUES);
    const bad = countingFetch();
    const refused = createClient({ url: s.url, key: 'key_live_not-a-real-key-0000000000000000', storage: false, fetch: bad.fetch, retryDelay: 5 });
    await expect(refused.getTranslations('de')).rejects.toMatchObject({ status: 401 });
    expect(bad.calls).toHaveLength(1);

    const counting = countingFetch();
    const client = createClient({ url: s.url, key: p.apiKey, storage: memoryStorage(), fetch: counting.fetch, retryDelay: 5 });
    // Not in the build's manifest: the server's 404, answered without asking for the file.
    await expect(client.getTranslations('fr')).rejects.toMatchObject({ status: 404, message: expect.stringMatching(/'fr' is not in build \S+ \(its languages: (de, en|en, de)\)/) });
    expect(fileRequests(counting.calls)).toHaveLength(0);
    // A server without build URLs is asked: its 404 is the answer.
    const unversioned = countingFetch(withoutBuildUrls());
    const plain = createClient({ url: s.url, key: p.apiKey, storage: false, fetch: unversioned.fetch });
    await expect(plain.getTranslations('fr')).rejects.toMatchObject({ status: 404 });
    expect(fileRequests(unversioned.calls).map((c) => c.status)).toEqual([404]);

    // A key revoked: the copies it read are not served any more.
    const created = await s.admin('POST', `/projects/${p.projectId}/api-keys`, {});
    expect(created.status).toBe(201);
    const second = (await created.json()) as { id: string; key: string };
    const revoked = createClient({ url: s.url, key: second.key, storage: memoryStorage() });
    expect((await revoked.getTranslations('de'))['home.title']).toBe('Willkommen');
    expect((await s.admin('DELETE', `/api-keys/${second.id}`)).status).toBe(204);
    await expect(revoked.getTranslations('de')).rejects.toMatchObject({ status: 401 });

    // A language removed and published: its stored copy is not served any more.
    expect((await client.getTranslations('en'))['home.title']).toBe('Welcome');
    expect((await s.call(p.apiKey, 'DELETE', '/v1/languages/en')).status).toBe(200);
    await s.publish(p, {});
    await expect(client.getTranslations('en')).rejects.toMatchObject({ status: 404 });
  });
});
