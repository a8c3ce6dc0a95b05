// One GET with the spec's retry guidance (section 7): 401, 403, 404 and other 4xx are final; 429
// waits for Retry-After; a 500 is retried once after 1 to 2 s; a 503 (and a gateway's 502/504, or no
// answer at all) up to 3 attempts with exponential backoff. A caller holding a stored copy asks for
// no retries: the copy is its answer at once, and the next call asks the server again.
import { TmsError } from './errors.ts';

/** A 200's ETag and body, or no body for a 304; `modified` is Last-Modified (a build's time here). */
export type Fetched = { etag: string | null; modified: string | null; body?: unknown };

export type Requester = (path: string, etag: string | undefined, failFast: boolean) => Promise<Fetched>;

type RequesterOptions = {
  base: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
  retryDelay: number;
  maxRetryWait: number;
  timeout: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  return async (path, etag, failFast) => {
    for (let attempt = 0; ; attempt++) {
      const blocked = blockedUntil - Date.now();
      if (blocked > 0) {
        const seconds = Math.ceil(blocked / 1000);
        throw new TmsError(`GET ${path}: rate limited (429), retry after ${seconds} s`, 429, undefined, seconds);
      }
      let res: Response | undefined;
      let detail: unknown;
      // A server that accepts and never answers (a black-holed network) must not hang the app: past
      // the timeout it counts as no answer, and a stored copy is served.
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), o.timeout);
      try {
        const headers = etag ? { ...o.headers, 'If-None-Match': etag } : o.headers;
        res = await o.fetch(o.base + path, { headers, signal: controller.signal });
        const modified = res.headers.get('last-modified');
        if (res.status === 304) return { etag: etag ?? null, modified };
        const body = await res.json();
        if (res.ok) return { etag: res.headers.get('etag'), modified, body };
        detail = (body as { detail?: unknown }).detail;
      } catch (error) {
        // No answer, or a 200 that is not JSON (a captive portal's page): as good as offline.
        if (res?.ok !== false) {
          res = undefined;
          detail = controller.signal.aborted ? `no answer within ${o.timeout} ms` : String(error);
        }
      } finally {
        clearTimeout(timer);
      }
      const status = res?.status ?? 0;
      const waitHint = retryAfterMs(res?.headers.get('retry-after'), status);
      if (status === 429) blockedUntil = Date.now() + waitHint;
      let wait = -1;
      if (!failFast) {
        if (status === 429) wait = attempt === 0 && waitHint <= o.maxRetryWait ? waitHint : -1;
        else if (status === 500) wait = attempt === 0 ? o.retryDelay * (1 + Math.random()) : -1;
        else if (status === 0 || status > 500) wait = attempt < 2 ? Math.max(o.retryDelay * 2 ** attempt * (0.75 + Math.random() / 2), waitHint) : -1;
      }
      if (wait < 0) {
        const text = detailText(detail);
        const what = status ? `${status}${text ? ` ${text}` : ''}` : `cannot reach the server (${detail})`;
        throw new TmsError(`GET ${path}: ${what}`, status, detail, status === 429 ? Math.ceil(waitHint / 1000) : undefined);
      }
      if (status === 429) blockedUntil = 0;
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
