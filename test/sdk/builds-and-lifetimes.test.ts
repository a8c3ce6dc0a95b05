// The SDK when builds, answers and instances come and go: a read asked from onBuild gets the new
// build, not a read of the old one still on its way; an i18next reload drops keys and plural forms
// the new build no longer has; instances made per request (server rendering) and their polling are
// let go with them, or at close(); a slow, older manifest answer never takes the client back; option
// values at their edges (timeout 0 or Infinity, a pollInterval past a timer's limit); a stored file
// whose manifest entry is lost serves at once offline; file names too long for a disk; two file
// storages on one folder. A scripted fetch stands in for a tms with
// versioned builds (as test/sdk/retry.test.ts does), so the timing of each answer is controlled.
import { createHash } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { createClient, type BuildEvent, type Client } from '../../sdk/src/index.ts';
import { TmsBackend } from '../../sdk/src/i18next.ts';
import { fileStorage } from '../../sdk/src/node.ts';
import { hash } from '../../sdk/src/store.ts';
import { mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Files = Record<string, Record<string, string>>; // language -> full key -> value

/** A tms with versioned builds: `publish` makes a new build; `hold` delays the answers it matches. */
function fakeTms(first: Files) {
  const builds = new Map<string, Files>([['b1', first]]);
  let current = 'b1';
  let n = 1;
  const requests: { path: string; status: number }[] = [];
  const holds: { match: (path: string) => boolean; release: Promise<void> }[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const path = new URL(String(input)).pathname;
    const ifNoneMatch = new Headers(init?.headers).get('if-none-match');
    // The answer is what the server has when the request arrives; it may reach the client later.
    let res: Response;
    if (path === '/v1/cached/manifest') {
      const etag = `"m-${current}"`;
      const manifest = {
        project_id: 'p',
        build_id: current,
        languages: Object.keys(builds.get(current)!).map((code) => ({ code, name: code, iso: code, approved_count: 1, url: `/v1/cached/builds/${current}/translations/${code}` })),
      };
      res = ifNoneMatch === etag ? new Response(null, { status: 304, headers: { ETag: etag } }) : Response.json(manifest, { headers: { ETag: etag } });
    } else {
      const m = /^\/v1\/cached\/builds\/([^/]+)\/translations\/([^/]+)$/.exec(path);
      const values = m ? builds.get(m[1]!)?.[m[2]!] : undefined;
      if (!values) res = Response.json({ detail: 'not found' }, { status: 404 });
      else {
        const etag = `"${createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 16)}"`;
        res = ifNoneMatch === etag ? new Response(null, { status: 304, headers: { ETag: etag } }) : Response.json({ translations: values }, { headers: { ETag: etag } });
      }
    }
    requests.push({ path, status: res.status });
    const hold = holds.find((h) => h.match(path));
    if (hold) {
      holds.splice(holds.indexOf(hold), 1);
      await hold.release;
    }
    return res;
  };
  return {
    fetch: fetcher,
    requests,
    publish(files: Files) {
      current = `b${++n}`;
      builds.set(current, files);
      return current;
    },
    /** Holds the next answer whose path matches until the returned function is called. */
    hold(match: (path: string) => boolean) {
      let release!: () => void;
      holds.push({ match, release: new Promise<void>((r) => (release = r)) });
      return () => release();
    },
  };
}

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

describe('a build event and a read of the previous build in flight', () => {
  it('a getTranslations called from onBuild serves the new build, not a read of the old build still in flight', async () => {
    const tms = fakeTms({ de: { 'home.title': 'Alt' } });
    const client = createClient({ url: 'http://tms.test', key: 'k', storage: false, fetch: tms.fetch });
    // The app's first read of de: the manifest (b1) is answered, the b1 file is on its way.
    const release = tms.hold((p) => p.includes('/builds/b1/translations/de'));
    const first = client.getTranslations('de');
    await tick();
    // A publish, seen (by polling or any other read) while that answer is on its way.
    tms.publish({ de: { 'home.title': 'Neu' } });
    const onBuild: Promise<Record<string, string>>[] = [];
    client.onBuild(() => onBuild.push(client.getTranslations('de'))); // "reload", as the README says
    await client.getManifest();
    expect(onBuild).toHaveLength(1);
    release();
    await first;
    // The listener asked after the new build was seen: it must get the new build's value.
    expect((await onBuild[0]!)['home.title']).toBe('Neu');
  });
});

describe('i18next: a new build reloads what i18next has loaded', () => {
  it('keys and plural forms the new build no longer has are not served after the reload', async () => {
    const tms = fakeTms({
      de: { 'home.notes': '{count, plural, =0 {Keine Notizen} one {# Notiz} other {# Notizen}}', 'home.old': 'Alter Text', 'home.title': 'Willkommen' },
    });
    const client = createClient({ url: 'http://tms.test', key: 'k', storage: false, fetch: tms.fetch });
    const i18n = i18next.createInstance();
    await i18n.use(TmsBackend).init({ backend: { client }, lng: 'de', fallbackLng: false });
    expect(i18n.t('home.notes', { count: 0 })).toBe('Keine Notizen');
    expect(i18n.t('home.old')).toBe('Alter Text');

    // The new build: the =0 form taken out of the plural, home.old deleted, home.title changed.
    tms.publish({ de: { 'home.notes': '{count, plural, one {# Notiz} other {# Notizen}}', 'home.title': 'Hallo' } });
    const loaded = new Promise<void>((resolve) => i18n.on('loaded', (what: Record<string, unknown>) => what.de && resolve()));
    await client.getManifest();
    await loaded;
    expect(i18n.t('home.title')).toBe('Hallo'); // the reload did happen
    // What a fresh start on the new build shows:
    const fresh = i18next.createInstance();
    await fresh.use(TmsBackend).init({ backend: { client }, lng: 'de', fallbackLng: false });
    expect(fresh.t('home.notes', { count: 0 })).toBe('0 Notizen');
    expect(fresh.t('home.old')).toBe('home.old');
    // The reloaded instance must show the same.
    expect({ zero: i18n.t('home.notes', { count: 0 }), old: i18n.t('home.old') }).toEqual({ zero: '0 Notizen', old: 'home.old' });
  });
});

describe('i18next: instances made per request (server rendering) and the client', () => {
  // Collection made to happen: what the test shows is that nothing but the app holds an instance.
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  async function collectUntil(done: () => boolean) {
    for (let i = 0; i < 100 && !done(); i++) {
      gc();
      await tick(10);
    }
  }

  it('a shared client does not keep every i18next instance ever made subscribed to its builds', async () => {
    const tms = fakeTms({ de: { 'home.title': 'Willkommen' } });
    const inner = createClient({ url: 'http://tms.test', key: 'k', storage: false, fetch: tms.fetch });
    let subscribed = 0;
    let reads = 0;
    const client: Client = {
      ...inner,
      getTranslations: (...args) => (reads++, inner.getTranslations(...args)),
      onBuild(listener) {
        subscribed++;
        const off = inner.onBuild(listener);
        return () => (subscribed--, off());
      },
    };
    const instance = async () => {
      const i18n = i18next.createInstance();
      await i18n.use(TmsBackend).init({ backend: { client }, lng: 'de', fallbackLng: false });
      expect(i18n.t('home.title')).toBe('Willkommen');
      return i18n;
    };
    // 20 requests, each with its own instance, all done; one instance the app keeps.
    const kept = await instance();
    await (async () => {
      for (let i = 0; i < 20; i++) await instance();
    })();
    expect(subscribed).toBe(21);
    await collectUntil(() => subscribed === 1);
    expect(subscribed).toBe(1);
    // A build reloads the one instance still in use.
    reads = 0;
    const loaded = new Promise<void>((resolve) => kept.on('loaded', () => resolve()));
    tms.publish({ de: { 'home.title': 'Hallo' } });
    await inner.getManifest();
    await loaded;
    expect({ reads, title: kept.t('home.title') }).toEqual({ reads: 1, title: 'Hallo' });
    // And close() lets it go at once.
    (kept.services.backendConnector as unknown as { backend: TmsBackend }).backend.close();
    expect(subscribed).toBe(0);
  });

  it('a backend made with pollInterval stops polling with its instance, or at close()', async () => {
    const tms = fakeTms({ de: { 'home.title': 'Willkommen' } });
    const instance = async () => {
      const i18n = i18next.createInstance();
      await i18n.use(TmsBackend).init({ backend: { url: 'http://tms.test', key: 'k', storage: false, fetch: tms.fetch, pollInterval: 20 }, lng: 'de', fallbackLng: false });
      return i18n;
    };
    await (async () => {
      for (let i = 0; i < 5; i++) await instance();
    })();
    const pollsIn = async (ms: number) => {
      const before = tms.requests.length;
      await tick(ms);
      return tms.requests.length - before;
    };
    expect(await pollsIn(100)).toBeGreaterThan(0);
    let polls = -1;
    for (let i = 0; i < 20 && polls !== 0; i++) {
      gc();
      polls = await pollsIn(100);
    }
    expect(polls).toBe(0);
    const kept = await instance();
    expect(await pollsIn(100)).toBeGreaterThan(0);
    (kept.services.backendConnector as unknown as { backend: TmsBackend }).backend.close();
    await tick(30);
    expect(await pollsIn(100)).toBe(0);
  });
});

describe('manifest answers that arrive out of order', () => {
  it('an older manifest answer arriving after a newer one does not take the client back to the older build', async () => {
    const tms = fakeTms({ de: { 'home.title': 'Alt' } });
    const client = createClient({ url: 'http://tms.test', key: 'k', storage: false, fetch: tms.fetch, maxAge: 100, pollInterval: 300 });
    try {
      const events: BuildEvent[] = [];
      client.onBuild((e) => events.push(e));
      await client.getTranslations('de'); // t = 0: manifest b1
      await tick(150); // past maxAge
      // getManifest asks (maxAge is over): answered 304 (b1), slowly.
      const release = tms.hold((p) => p === '/v1/cached/manifest');
      const slow = client.getManifest();
      await tick(10);
      tms.publish({ de: { 'home.title': 'Neu' } });
      // The poll (every 300 ms, maxAge or not) asks too, and hears of b2 first.
      await new Promise<void>((resolve) => client.onBuild(() => resolve()));
      release();
      await slow;
      expect(events.map((e) => `${e.previous}->${e.build}`)).toEqual(['b1->b2']);
      expect((await client.getManifest()).build_id).toBe('b2');
    } finally {
      client.close();
    }
  });
});

describe('option values', () => {
  it.each([0, Infinity])('timeout: %s (no timeout, as 0 means never for pollInterval) does not abort every request', async (timeout) => {
    const tms = fakeTms({ de: { 'home.title': 'Willkommen' } });
    // 30 ms to answer; like any real fetch, it gives up when its signal aborts.
    const slow: typeof fetch = (input, init) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve(tms.fetch(input, init)), 30);
        init?.signal?.addEventListener('abort', () => (clearTimeout(timer), reject(new DOMException('aborted', 'AbortError'))));
      });
    const client = createClient({ url: 'http://tms.test', key: 'k', storage: false, fetch: slow, timeout, retryDelay: 1 });
    await expect(client.getTranslations('de')).resolves.toEqual({ 'home.title': 'Willkommen' });
  });

  it('a pollInterval beyond 2^31 - 1 ms (about 25 days) does not poll every millisecond', async () => {
    const tms = fakeTms({ de: { 'home.title': 'Willkommen' } });
    const client = createClient({ url: 'http://tms.test', key: 'k', storage: false, fetch: tms.fetch, pollInterval: 30 * 24 * 3600 * 1000 });
    try {
      await tick(100);
      expect(tms.requests.length).toBe(0);
    } finally {
      client.close();
    }
  });
});

describe('i18next: a TmsBackend instance passed to use()', () => {
  it('use(new TmsBackend(undefined, { client })) works as its constructor suggests', async () => {
    const tms = fakeTms({ de: { 'home.title': 'Willkommen' } });
    const client = createClient({ url: 'http://tms.test', key: 'k', storage: false, fetch: tms.fetch });
    const i18n = i18next.createInstance();
    // i18next calls init(services, options.backend) on an instance too: options.backend is unset here.
    await i18n.use(new TmsBackend(undefined, { client })).init({ lng: 'de', fallbackLng: false });
    expect(i18n.t('home.title')).toBe('Willkommen');
  });
});

describe('a stored file without a stored manifest', () => {
  it('offline, the stored file is served at once, not after the manifest retries', async () => {
    const tms = fakeTms({ de: { 'home.title': 'Willkommen' } });
    const items = new Map<string, string>();
    const storage = { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
    await createClient({ url: 'http://tms.test', key: 'k', storage, fetch: tms.fetch }).getTranslations('de');
    // The manifest's entry lost (unreadable, as in client.test.ts "a stored manifest of the wrong shape"), the file's kept.
    items.set([...items.keys()].find((k) => k.endsWith(':manifest'))!, '{}');
    const offline: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    const started = Date.now();
    const fresh = createClient({ url: 'http://tms.test', key: 'k', storage, fetch: offline }); // default retryDelay
    expect(await fresh.getTranslations('de')).toEqual({ 'home.title': 'Willkommen' });
    expect(Date.now() - started).toBeLessThan(500);
  });
});

describe('fileStorage: names on a case-insensitive folder', () => {
  it('entries whose names differ only in case are files whose names differ by more than case', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tms-sdk-files-'));
    try {
      const storage = fileStorage(dir);
      const names = ['tms:x:de/Home', 'tms:x:de/home', 'tms:x:de/HOME', 'tms:x:de/%48ome'];
      for (const name of names) await storage.setItem(name, name);
      const files = await readdir(dir);
      // macOS and Windows would see one file where Linux sees four.
      expect(new Set(files.map((f) => f.toLowerCase())).size).toBe(names.length);
      for (const name of names) expect(await storage.getItem(name)).toBe(name);
      // A name without upper-case letters keeps the file name it always had.
      await storage.setItem('tms:x:de/home', 'again');
      expect(files).toContain(`${encodeURIComponent('tms:x:de/home')}.json`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// An app updated from an SDK that named its files the former way (upper-case letters as they are,
// releases up to 2026-11-25) lost its offline copy of every language or group with a capital
// (pt-BR, zh-Hant, a group "Settings"): the new name was looked for, the old file never read again.
describe('fileStorage: files named by an earlier SDK', () => {
  const url = 'https://tms.example.com';
  const key = 'delivery_example';
  const build = '/v1/cached/builds/20261130T145201918Z-ed841474/translations';

  it('are read offline after the update, then kept under the current name', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tms-sdk-files-'));
    try {
      const prefix = `tms:${hash(`${url} ${key} `)}:`;
      // Exactly what the earlier SDK wrote: its entry shape, under encodeURIComponent(name).json.
      const former = (name: string, entry: unknown) => writeFile(join(dir, `${encodeURIComponent(prefix + name)}.json`), JSON.stringify(entry));
      await former('manifest', {
        u: '/v1/cached/manifest',
        e: '"m1"',
        m: null,
        t: 1,
        b: { project_id: 'p', build_id: '20261130T145201918Z-ed841474', languages: [{ code: 'de', url: `${build}/de` }, { code: 'pt-BR', url: `${build}/pt-BR` }] },
      });
      await former('de', { u: `${build}/de`, e: '"d"', m: null, t: 1, b: { 'home.title': 'Willkommen' } });
      await former('pt-BR', { u: `${build}/pt-BR`, e: '"p"', m: null, t: 1, b: { 'home.title': 'Bem-vindo' } });
      await former('de/Settings', { u: `${build}/de/Settings`, e: '"s"', m: null, t: 1, b: { 'Settings.Title': 'Einstellungen' } });

      const offline = createClient({ url, key, storage: fileStorage(dir), retryDelay: 1, fetch: async () => Promise.reject(new TypeError('fetch failed')) });
      expect(await offline.getTranslations('de')).toEqual({ 'home.title': 'Willkommen' });
      expect(await offline.getTranslations('pt-BR')).toEqual({ 'home.title': 'Bem-vindo' });
      expect(await offline.getTranslations('de', 'Settings')).toEqual({ 'Settings.Title': 'Einstellungen' });
      // Renamed: under the current name only.
      const files = await readdir(dir);
      expect(files).not.toContain(`${encodeURIComponent(prefix + 'pt-BR')}.json`);
      expect(await fileStorage(dir).getItem(prefix + 'pt-BR')).toContain('Bem-vindo');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("are not taken for another name's entry: on a case-insensitive disk the former name of Home was also home's", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tms-sdk-files-'));
    try {
      // Linux's folder stands in for the case-insensitive one: the former file of "tms:x:de/Home"
      // holds what "home" wrote there.
      await writeFile(join(dir, `${encodeURIComponent('tms:x:de/Home')}.json`), JSON.stringify({ u: `${build}/de/home`, e: null, m: null, t: 1, b: {} }));
      expect(await fileStorage(dir).getItem('tms:x:de/Home')).toBeNull();
      await writeFile(join(dir, `${encodeURIComponent('tms:x:de/Home')}.json`), 'not json');
      expect(await fileStorage(dir).getItem('tms:x:de/Home')).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// Group names may be 200 letters of any script (9 bytes each percent-encoded), and a disk allows 255
// bytes a name, the temporary file's `.<pid>.<n>.tmp` included: a longer name is shortened, and the
// file says which entry it holds.
describe('fileStorage: names too long for a file name', () => {
  const prefix = 'tms:1a2b3c:';
  // The longest suffix a temporary file gets: a pid up to 2^22, a write count up to 2^53.
  const TEMPORARY = `.${2 ** 22}.${Number.MAX_SAFE_INTEGER}.tmp`.length;

  it('are shortened with a hash (the temporary file fits too); a name up to 200 bytes stays readable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tms-sdk-files-'));
    try {
      const storage = fileStorage(dir);
      const longest = ['ユ'.repeat(200), 'Ä'.repeat(200), 'A'.repeat(200), 'a'.repeat(200)].map((group) => `${prefix}zh-Hant-TW/${group}`);
      const readable = `${prefix}de/${'a'.repeat(200 - encodeURIComponent(`${prefix}de/`).length)}`;
      for (const key of [...longest, readable]) await storage.setItem(key, `{"for":${JSON.stringify(key)}}`);
      const files = await readdir(dir);
      expect(files).toHaveLength(5);
      for (const file of files) expect(Buffer.byteLength(file) + TEMPORARY, file).toBeLessThanOrEqual(255);
      expect(files).toContain(`${encodeURIComponent(readable)}.json`);
      // Case-insensitive disks: still one file each.
      expect(new Set(files.map((f) => f.toLowerCase())).size).toBe(5);
      for (const key of [...longest, readable]) expect(await fileStorage(dir).getItem(key)).toBe(`{"for":${JSON.stringify(key)}}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a shortened file holding another name's entry is not served for this one", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tms-sdk-files-'));
    try {
      const storage = fileStorage(dir);
      const [mine, other] = [`${prefix}de/${'ユ'.repeat(30)}`, `${prefix}de/${'ユ'.repeat(31)}`];
      await storage.setItem(mine, 'mine');
      const [file] = await readdir(dir);
      await rm(join(dir, file!));
      await storage.setItem(other, 'other');
      // As if both names shortened to one file name: the file is other's.
      await rename(join(dir, (await readdir(dir))[0]!), join(dir, file!));
      expect(await storage.getItem(mine)).toBeNull();
      await writeFile(join(dir, file!), 'not what this SDK writes');
      expect(await storage.getItem(mine)).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('written by an earlier SDK under the whole name (when it fitted) are read, then kept under the shortened one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tms-sdk-files-'));
    try {
      const build = '/v1/cached/builds/20261130T145201918Z-ed841474/translations';
      const group = 'ACCOUNT_SETTINGS_NOTIFICATIONS_PREFERENCES_AND_PRIVACY_CONTROLS_FOR_ADMINS';
      const entry = (name: string) => JSON.stringify({ u: `${build}/${name}`, e: '"x"', m: null, t: 1, b: { [`${group}.title`]: name } });
      // The last release: upper-case letters as %XX (a name of 201 to about 225 bytes was written).
      const lastRelease = `${prefix}de/${group}`;
      const lastName = `${encodeURIComponent(lastRelease).replace(/%[0-9A-F]{2}|[A-Z]/g, (m) => (m.length === 1 ? `%${m.charCodeAt(0).toString(16).toUpperCase()}` : m))}.json`;
      expect(lastName.length).toBeGreaterThan(205);
      expect(lastName.length).toBeLessThanOrEqual(255);
      await writeFile(join(dir, lastName), entry(`de/${group}`));
      // Releases up to 2026-11-25: the letters as they are.
      const older = `${prefix}fr/${group}`;
      await writeFile(join(dir, `${encodeURIComponent(older)}.json`), entry(`fr/${group}`));

      for (const [key, name] of [[lastRelease, `de/${group}`], [older, `fr/${group}`]] as const) {
        expect(await fileStorage(dir).getItem(key)).toBe(entry(name));
        expect(await fileStorage(dir).getItem(key)).toBe(entry(name));
      }
      const files = await readdir(dir);
      expect(files).toHaveLength(2);
      for (const file of files) expect(file).toMatch(/\+[0-9a-f]{32}\.json$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('fileStorage: two storages on one folder in one process', () => {
  it('write one entry at once without sharing a temporary file: no error, and the file is one of the two whole', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tms-sdk-files-'));
    try {
      const [a, b] = [fileStorage(dir), fileStorage(dir)];
      const [one, two] = ['a'.repeat(1 << 20), 'b'.repeat(1 << 20)];
      for (let i = 0; i < 5; i++) {
        await Promise.all([a.setItem('tms:x:de', one), b.setItem('tms:x:de', two)]);
        expect([one, two]).toContain(await a.getItem('tms:x:de'));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
