// One GET with the spec's retry guidance (section 7): 401, 403, 404 and other 4xx are final; 429
// waits for Retry-After; a 500 is retried once after 1 to 2 s; a 503 (and a gateway's 502/504, or no
// answer at all) up to 3 attempts with exponential backoff. No wait is longer than maxRetryWait: a
// longer Retry-After fails at once. A caller holding a stored copy asks for no retries: the copy is
// its answer at once, and the next call asks the server again.
import { TmsError } from './errors.ts';

/** A 200's ETag and body, or no body for a 304; `modified` is Last-Modified (a build's time here). */
export type Fetched = { etag: string | null; modified: string | null; body?: unknown };

/** `revalidate`: a path whose answer changes (the manifest, a mutable path), not a build URL. */
export type Requester = (path: string, etag: string | undefined, failFast: boolean, revalidate: boolean) => Promise<Fetched>;

type RequesterOptions = {
  base: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
  retryDelay: number;
  maxRetryWait: number;
  timeout: number;
};

/** One request's outcome: the answer and its parsed body, or no answer (`res` undefined) and why. */
type Sent = { res?: Response; body?: unknown; detail?: unknown };

/** The longest delay a timer takes (2^31 - 1 ms, about 25 days): a longer one fires at once. */
export const MAX_DELAY = 2 ** 31 - 1;

/**
 * Where fetch goes through a browser's HTTP cache: a page (document) or a Web Worker (importScripts).
 * The manifest is `public, max-age=60, stale-while-revalidate=300`, and a request without
 * If-None-Match (storage: false, a worker, a fresh start) may be answered from that cache: an old
 * build after a publish. There the manifest and the mutable paths are sent with cache: 'no-cache'
 * (the browser asks the server, revalidating its copy); build URLs, which never change, keep the
 * default. Only there, on purpose: Cloudflare Workers throw on cache: 'no-cache' ("Unsupported
 * cache mode"), Node's, Bun's and Deno's fetch keep no HTTP cache, and React Native's (whatwg-fetch)
 * does not pass the mode on but appends `_=<time>` to the URL. The server would accept that
 * parameter (the manifest reads no query, the mutable paths' FallbackQuery ignores unknown names,
 * and CloudFront neither keys on nor forwards it), but a URL new on every request is a miss for any
 * other cache in between, and React Native was not part of the defect this fixes.
 */
const BROWSER_CACHE = 'document' in globalThis || 'importScripts' in globalThis;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, MAX_DELAY)));

/** Retry-After in milliseconds: delta-seconds or an HTTP date; a 429 without one waits a minute. */
function retryAfterMs(value: string | null | undefined, status: number): number {
  if (value) {
    const seconds = Number(value);
    const ms = seconds >= 0 ? seconds * 1000 : Date.parse(value) - Date.now();
    if (ms >= 0) return ms;
  }
  return status === 429 ? 60_000 : 0;
}

export function createRequester(o: RequesterOptions): Requester {
  // After a 429 nothing is sent until the quota resets: every request would be refused anyway.
  let blockedUntil = 0;
  // The last request got no answer (a hung or black-holed server): callers holding a copy serve it
  // at once instead of each waiting out the timeout, while one request in the background (`probe`)
  // finds out whether the server is back. Any answer ends it, so a healthy server is always asked.
  let down = false;
  let probe: Promise<Sent> | undefined;

  async function send(path: string, etag: string | undefined, revalidate: boolean): Promise<Sent> {
    let res: Response | undefined;
    // A server that accepts and never answers must not hang the app: past the timeout it counts
    // as no answer, and a stored copy is served.
    // 0 (or Infinity) is no timeout, as 0 is no polling and no maxAge.
    const controller = new AbortController();
    const timer = o.timeout > 0 && o.timeout <= MAX_DELAY ? setTimeout(() => controller.abort(), o.timeout) : undefined;
    try {
      const headers = etag ? { ...o.headers, 'If-None-Match': etag } : o.headers;
      // (Node's RequestInit type has no `cache`: the DOM's has.)
      const init: RequestInit & { cache?: 'no-cache' } = { headers, signal: controller.signal };
      if (revalidate && BROWSER_CACHE) init.cache = 'no-cache';
      res = await o.fetch(o.base + path, init);
      down = false;
      return { res, body: res.status === 304 ? undefined : await res.json() };
    } catch (error) {
      // No answer, or a 200 that is not JSON (a captive portal's page): as good as offline.
      if (res?.ok === false) return { res };
      down = true;
      return { detail: controller.signal.aborted ? `no answer within ${o.timeout} ms` : String(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  return async (path, etag, failFast, revalidate) => {
    // The one wait for a 429's reset this call may take (its own 429's, or another call's).
    let waited = false;
    for (let attempt = 0; ; attempt++) {
      const blocked = blockedUntil - Date.now();
      if (blocked > 0 && !waited) {
        const seconds = Math.ceil(blocked / 1000);
        if (failFast || attempt > 0 || blocked > o.maxRetryWait) throw new TmsError(`GET ${path}: rate limited (429), retry after ${seconds} s`, 429, undefined, seconds);
        waited = true;
        await sleep(blocked);
      }
      if (failFast && down) {
        probe ??= send(path, etag, revalidate).finally(() => (probe = undefined));
        throw new TmsError(`GET ${path}: cannot reach the server (no answer to the last request)`, 0);
      }
      const { res, body, detail = (body as { detail?: unknown } | null)?.detail } = await send(path, etag, revalidate);
      const modified = res?.headers.get('last-modified') ?? null;
      if (res?.status === 304) return { etag: etag ?? null, modified };
      if (res?.ok) return { etag: res.headers.get('etag'), modified, body };
      const status = res?.status ?? 0;
      const waitHint = retryAfterMs(res?.headers.get('retry-after'), status);
      if (status === 429) blockedUntil = Date.now() + waitHint;
      let wait = -1;
      // A Retry-After beyond maxRetryWait is not waited for (a 503's as a 429's): fail, or serve the copy.
      if (!failFast && waitHint <= o.maxRetryWait) {
        if (status === 429) wait = attempt === 0 && !waited ? waitHint : -1;
        else if (status === 500) wait = attempt === 0 ? o.retryDelay * (1 + Math.random()) : -1;
        else if (status === 0 || status > 500) wait = attempt < 2 ? Math.min(o.maxRetryWait, Math.max(o.retryDelay * 2 ** attempt * (0.75 + Math.random() / 2), waitHint)) : -1;
      }
      if (wait < 0) {
        const text = detailText(detail);
        const what = status ? `${status}${text ? ` ${text}` : ''}` : `cannot reach the server (${detail})`;
        throw new TmsError(`GET ${path}: ${what}`, status, detail, status === 429 || waitHint ? Math.ceil(waitHint / 1000) : undefined);
      }
      // blockedUntil stays set while this call waits: the other calls are held back too.
      if (status === 429) waited = true;
      await sleep(wait);
    }
  };
}

/** The envelope's detail as one line: a string as it is, a 422's issues as "loc: msg", a 402's or 412's message. */
function detailText(detail: unknown): string {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail.map((i: { loc?: unknown[]; msg?: unknown }) => `${Array.isArray(i?.loc) ? `${i.loc.join('.')}: ` : ''}${i?.msg ?? ''}`).join('; ');
  }
  const message = (detail as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : '';
}
