// createClient: the cached endpoints with revalidation, the last good copy when the server cannot
// answer, and an event when the manifest names a newer build.
//
// Where a language's file comes from: a server with versioned builds lists, per language, the URL of
// its current file in the manifest. That file never changes, so a copy fetched from it is served
// with no request until the manifest names another; only the manifest is revalidated. A server
// without build URLs is asked the mutable path (/v1/cached/translations/...) with If-None-Match.
import { TmsError } from './errors.ts';
import { createRequester, MAX_DELAY } from './request.ts';
import { browserStorage, createStore, hash, type Entry } from './store.ts';
import type { BuildEvent, Client, ClientOptions, Manifest, Translations } from './types.ts';

const MANIFEST_PATH = '/v1/cached/manifest';

const translationsPath = (language: string, group?: string) =>
  `/v1/cached/translations/${encodeURIComponent(language)}${group === undefined ? '' : `/${encodeURIComponent(group)}`}`;

/** Whether a failure is the server being away (no answer, 5xx, 429), when a stored copy may stand in. */
const unavailable = (error: unknown) => {
  const status = (error as TmsError).status;
  return status === 0 || status === 429 || status >= 500;
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The shapes read from the server and from storage. Anything else (a proxy's {"detail":"ok"}, a
 * hand-edited file) is treated as no answer, or as nothing stored: never read until it throws.
 */
const isManifest = (body: unknown): body is Manifest =>
  isObject(body) && Array.isArray(body.languages) && body.languages.every((l: { code?: unknown } | null) => typeof l?.code === 'string');
const isTranslations = (body: unknown): body is Translations => isObject(body);

/**
 * The build a manifest describes: its build_id; on servers without build ids, its Last-Modified (the
 * build's time: a manifest's ETag stays the same when only values changed), else its ETag.
 */
const buildOf = (entry: Entry<Manifest>) => entry.b.build_id ?? entry.m ?? entry.e ?? '';

export function createClient(options: ClientOptions): Client {
  const base = options.url.replace(/\/+$/, '');
  const headers: Record<string, string> = { 'X-API-Key': options.key };
  if (options.project) headers['X-Project-Id'] = options.project;
  const given = options.fetch;
  const request = createRequester({
    base,
    headers,
    // Called as a plain function: a browser's fetch passed in (`fetch: window.fetch`) and called
    // as a method of the options would throw "Illegal invocation" on every request.
    fetch: given ? (input, init) => given(input, init) : (input, init) => fetch(input, init),
    retryDelay: options.retryDelay ?? 1000,
    maxRetryWait: options.maxRetryWait ?? 30_000,
    timeout: options.timeout ?? 10_000,
  });
  const storage = options.storage === false ? undefined : (options.storage ?? browserStorage());
  const store = createStore(storage, `tms:${hash(`${base} ${options.key} ${options.project ?? ''}`)}:`);
  const maxAge = options.maxAge ?? 0;
  const listeners = new Set<(event: BuildEvent) => void>();
  const inflight = new Map<string, Promise<unknown>>();
  /** The build the last manifest named (undefined until one is known, from the server or storage). */
  let seenBuild: string | undefined;
  /** When a new build was last seen: copies confirmed before it are revalidated even within maxAge. */
  let buildSeenAt = 0;

  /** Concurrent identical calls share one request. */
  function once<T>(name: string, run: () => Promise<T>): Promise<T> {
    let running = inflight.get(name) as Promise<T> | undefined;
    if (!running) {
      running = run().finally(() => inflight.delete(name));
      inflight.set(name, running);
    }
    return running;
  }

  /**
   * The entry `name` as the server has it at `path`, revalidated with the held copy's ETag; the held
   * copy itself when it is still good (an unchanged build URL, or within maxAge) or when the server
   * cannot answer (offline, 5xx, 429). 401, 403 and 404 are final: a stale copy would hide them.
   * `answered` is false when the held copy stands in for a server that could not answer.
   */
  async function load<T>(
    name: string,
    path: string,
    held: Entry<T> | undefined,
    immutable: boolean,
    valid: (body: unknown) => body is T,
    age = maxAge,
    /** A copy of something else serves if the server cannot answer (the manifest, when a file is held). */
    failFast = held !== undefined,
    /** Whether this answer is still the latest to store (a slower, older answer must not replace a newer one). */
    current = () => true,
  ): Promise<{ entry: Entry<T>; answered: boolean }> {
    const now = Date.now();
    if (held && held.u === path && (immutable || (now - held.t < age && held.t >= buildSeenAt))) return { entry: held, answered: true };
    try {
      const got = await request(path, held?.e ?? undefined, failFast, !immutable);
      if ('body' in got) {
        // A language file's values are its `translations`; a manifest is the body itself.
        const manifest = name === 'manifest';
        const body = manifest ? got.body : (got.body as { translations?: unknown } | null)?.translations;
        if (!valid(body)) throw new TmsError(`GET ${path}: cannot reach the server (the answer is not a tms ${manifest ? 'manifest' : 'file'})`, 0);
        const entry = { u: path, e: got.etag, m: got.modified, b: body, t: now };
        if (current()) await store.put(name, entry, true);
        return { entry, answered: true };
      }
      if (!held) throw new TmsError(`GET ${path}: 304 without a stored copy`, 304);
      const entry = { ...held, u: path, m: got.modified ?? held.m, t: now };
      // The same content from a newer build or at a new path: remember which.
      if (current()) await store.put(name, entry, held.u !== path || held.m !== entry.m);
      return { entry, answered: true };
    } catch (error) {
      if (held && unavailable(error)) return { entry: held, answered: false };
      throw error;
    }
  }

  /** Manifest requests in the order they were sent; the answer of the latest applied, by number. */
  let manifestsSent = 0;
  let applied: { n: number; manifest: Manifest } | undefined;

  /**
   * The manifest, served from the held copy while it is younger than `age` (0: always asked).
   * `fast`: a file is held, which serves at once if the server cannot answer (no retries).
   * `answered`: false when it is the stored copy standing in for a server that could not answer.
   */
  const readManifest = (age: number, fast = false) =>
    once(`manifest${age}${fast ? ':fast' : ''}`, async () => {
      const n = ++manifestsSent;
      const held = await store.get('manifest', isManifest);
      if (held && seenBuild === undefined) seenBuild = buildOf(held);
      // Reads with different maxAge (a poll, a 404's re-read) may be in flight together: an answer
      // that arrives after a later request's was applied is older news, never a build to go back to.
      const latest = () => !applied || applied.n < n;
      const { entry, answered } = await load('manifest', MANIFEST_PATH, held, false, isManifest, age, held !== undefined || fast, latest);
      // A stand-in is no news: no build event, and no answer that a later one must not go back from.
      if (!answered) return { manifest: entry.b, answered };
      if (!latest()) return { manifest: applied!.manifest, answered };
      applied = { n, manifest: entry.b };
      const build = buildOf(entry);
      const previous = seenBuild;
      seenBuild = build;
      if (previous !== undefined && build !== previous) {
        buildSeenAt = Date.now();
        for (const listener of listeners) {
          try {
            listener({ build, previous, manifest: entry.b });
          } catch {
            // One listener's bug must not stop the others, nor the read that saw the build.
          }
        }
      }
      return { manifest: entry.b, answered };
    });
  const getManifest = () => readManifest(maxAge).then((read) => read.manifest);

  const getTranslations = (language: string, group?: string) => {
    const name = group === undefined ? language : `${language}/${group}`;
    // A read joins one in flight only if no newer build was seen since it began: a listener of
    // onBuild that reads again must get the new build, not the read of the old one on its way.
    return once(`t:${name}@${buildSeenAt}`, async () => {
      const held = await store.get(name, isTranslations);
      const known = await store.get('manifest', isManifest);
      let manifest: Manifest | undefined;
      /** Whether `manifest` is the server's answer (or a copy within maxAge), not a stand-in for it. */
      let answered = false;
      if (known && !known.b.build_id) {
        // A server without build URLs: the file and the manifest (for new-build events) side by side.
        getManifest().catch(() => {});
      } else {
        try {
          ({ manifest, answered } = await readManifest(maxAge, held !== undefined));
        } catch (error) {
          // A refusal (401, 403) must show even when files are held; an absent server must not.
          if (!unavailable(error) || (!known && !held)) throw error;
          manifest = known?.b;
        }
      }
      const lower = language.toLowerCase();
      const urlIn = (m: Manifest | undefined) => m?.languages.find((l) => l.code.toLowerCase() === lower)?.url;
      // A build's manifest lists every file it has: a language it does not name (i18next's default
      // fallback 'dev', a language not yet built) is the server's 404 without asking it, which would
      // cost a request and a unit of quota on every start. Not when the manifest is a stored copy
      // standing in for a server that cannot answer (offline, a 5xx): the language may have been
      // published since. Then `read` asks its mutable path, with the usual retries when no copy is
      // held, and the answer is the server's (or status 0, or the held copy).
      if (answered && manifest?.build_id && urlIn(manifest) === undefined) {
        const listed = manifest.languages.map((l) => l.code).join(', ') || 'none';
        throw new TmsError(
          `GET ${translationsPath(language, group)}: 404 language '${language}' is not in build ${manifest.build_id} (its languages: ${listed})`,
          404,
          `Language '${language}' is not in build ${manifest.build_id}`,
        );
      }
      const read = async (manifest: Manifest | undefined, retried?: boolean): Promise<Translations> => {
        const url = urlIn(manifest);
        const path = url ? (group === undefined ? url : `${url}/${encodeURIComponent(group)}`) : translationsPath(language, group);
        try {
          return (await load(name, path, held, url !== undefined, isTranslations)).entry.b;
        } catch (error) {
          // A build URL gone (404) means the manifest held is out of date (within maxAge, or a build
          // published and cleaned up since it was read): read it again, once, and follow a new URL.
          if (!url || retried || (error as TmsError).status !== 404) throw error;
          const current = await readManifest(0).then((read) => read.manifest, () => manifest);
          if (urlIn(current) === url) throw error;
          return read(current, true);
        }
      };
      return read(manifest);
    });
  };

  // Polling asks the server every time, even within maxAge: new builds are what it is for. (A
  // timer's delay is at most 2^31 - 1 ms; a longer one would fire every millisecond.)
  const poll = options.pollInterval ?? 0;
  const timer = poll > 0 ? setInterval(() => readManifest(0).catch(() => {}), Math.min(poll, MAX_DELAY)) : undefined;
  (timer as { unref?: () => void } | undefined)?.unref?.();

  return {
    getTranslations,
    getManifest,
    onBuild(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close: () => clearInterval(timer),
  };
}
