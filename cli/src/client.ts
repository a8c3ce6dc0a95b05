// The CLI's HTTP client: one base URL, the API key as X-API-Key, and every non-2xx turned into a
// CliError whose message says what happened and what to do next, with the exit code for it.
import { CliError, EXIT } from './errors.ts';

/** A request's body and headers, the statuses its caller handles, and its advice when an answer is lost. */
export type RequestInit = {
  body?: Uint8Array;
  headers?: Record<string, string>;
  accept?: number[];
  /**
   * What to do when a write's answer is lost (a timeout, a connection broken after it went out):
   * by default, run the command again, as a push changes nothing twice; a write that does not
   * repeat safely (an upload makes a new screenshot each time) says its own.
   */
  ifLost?: string;
};

export type Client = {
  /** `accept`: statuses the caller handles itself (e.g. 404 for a language without values). */
  request(method: string, path: string, init?: RequestInit): Promise<Response>;
  json<T>(method: string, path: string): Promise<T>;
};

type Quota = { code: 'QUOTA_EXCEEDED'; used: number; limit: number; reset_date: string; upgrade_url: string };
type Issue = { loc: (string | number)[]; msg: string };

/**
 * Retry-After in milliseconds: seconds, or an HTTP date (RFC 9110 allows both; a proxy or CDN in
 * front of the server may send a date). Neither, or a time past: a minute, the spec's own advice.
 */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  const value = header?.trim() ?? '';
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) && ms >= 0 ? ms : 60_000;
}

function explain(status: number, detail: unknown, what: string, retryAfter: string | null): CliError {
  if (status === 401) {
    return new CliError(`${what}: the API key was refused (401). Set TMS_API_KEY (or --api-key) to a key of this project.`, EXIT.auth);
  }
  if (status === 403) return new CliError(`${what}: ${String(detail)} (403). Use a key of the project this config is for.`, EXIT.auth);
  if (status === 402 && typeof detail === 'object' && detail !== null && (detail as Quota).code === 'QUOTA_EXCEEDED') {
    const q = detail as Quota;
    return new CliError(
      `${what}: monthly translation-unit quota exceeded (402 QUOTA_EXCEEDED): this would use ${q.used} of ${q.limit}; ` +
        `the quota resets on ${q.reset_date}. Upgrade the plan: ${q.upgrade_url}`,
      EXIT.quota,
    );
  }
  if (status === 402) {
    // The server's message names the limit and usually what to do (core/projects/lock-project.ts:
    // "… Upgrade the plan to add more."): advice is added only when it has none.
    const said = String(detail).trim().replace(/\.+$/, '');
    return new CliError(`${what}: plan limit reached (402): ${said}.${/upgrade/i.test(said) ? '' : ' Upgrade the plan to raise it.'}`, EXIT.quota);
  }
  if (status === 422 && Array.isArray(detail)) {
    const issues = (detail as Issue[]).map((i) => `  ${i.loc.join('.')}: ${i.msg}`).join('\n');
    return new CliError(`${what}: refused (422):\n${issues}`, EXIT.failed);
  }
  if (status === 429) {
    return new CliError(`${what}: rate limited (429): ${String(detail)}${retryAfter ? `; retry after ${retryAfter} s` : ''} (or run with --wait-for-quota)`, EXIT.failed);
  }
  return new CliError(`${what}: ${status} ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`, EXIT.failed);
}

export type RetryOptions = {
  /** Wait for the daily quota's reset (Retry-After) on 429 instead of exiting. */
  waitForQuota?: boolean;
  /** Told, once per wait for the daily quota, what is awaited and until when (a wait can last hours). */
  onWait?: (text: string) => void;
  /** Scales every wait (tests use a small one); 1 in normal use. */
  delayScale?: number;
  /** How long one request may take, answer included (TMS_TIMEOUT); 120 s by default. */
  timeoutMs?: number;
  /** Where the server's URL came from, for the advice when it cannot be reached. */
  serverFrom?: string;
};

/** Errors of a connection that was never made: the server was not reached at all. */
const NOT_REACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_INVALID_URL']);

/**
 * What a failed fetch means for the user. Refused or unknown host: the server was not reached, so
 * nothing happened. A timeout or a connection broken after the request went out: the server may
 * have done it (an import applied, its answer lost), and saying "cannot reach" was wrong.
 */
const RUN_AGAIN = 'the server may have applied it: run the command again (a push of the same files changes nothing twice)';

function transportError(error: unknown, where: { server: string; what: string; method: string; timeoutMs: number; serverFrom: string; ifLost: string | undefined }): CliError {
  const { server, what, method, timeoutMs, serverFrom } = where;
  const maybeDone = method === 'GET' ? '' : `; ${where.ifLost ?? RUN_AGAIN}`;
  if ((error as { name?: string }).name === 'TimeoutError') {
    return new CliError(`${what}: no answer from ${server} within ${timeoutMs / 1000} s${maybeDone}. Set TMS_TIMEOUT (seconds) to wait longer.`, EXIT.failed);
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? cause?.message ?? String(error);
  if (cause?.code !== undefined && !NOT_REACHED.has(cause.code) && !/^(ERR_TLS|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO)/.test(cause.code)) {
    return new CliError(`${what}: the connection to ${server} broke before the answer came (${code})${maybeDone}.`, EXIT.failed);
  }
  return new CliError(`cannot reach ${server}: ${code}. Is the server running, and is ${serverFrom} right?`, EXIT.failed);
}

/** A redirect; 304 (an ETag's "unchanged") is an answer, not one. */
const isRedirect = (status: number) => status >= 300 && status < 400 && status !== 304;

/**
 * A redirect, said with the address it names: an http:// URL that the server moves to https://, or
 * a proxy's new host. The server URL to set is that address without the request's path, when it
 * ends with it.
 */
function redirected(res: Response, where: { server: string; path: string; what: string; serverFrom: string }): CliError {
  const { server, path, what, serverFrom } = where;
  const location = res.headers.get('location');
  if (!location) return new CliError(`${what}: the server answered a redirect (${res.status}) without an address; check ${serverFrom} (${server})`, EXIT.failed);
  const target = URL.canParse(location, server + path) ? new URL(location, server + path).href : location;
  const base = target.endsWith(path) && target.length > path.length ? target.slice(0, -path.length) : undefined;
  return new CliError(
    `${what}: the server redirected to ${target} (${res.status}); set the server URL to that address ` +
      `(${base === undefined ? '' : `${base}; `}the URL comes from ${serverFrom}). Redirects are not followed: they would carry the API key elsewhere`,
    EXIT.failed,
  );
}

/** "3 h 12 min", "4 min", "20 s": how long a wait lasts, for people. */
function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The response, whose body reads fail as `explain` says (a timeout or a broken connection mid-body). */
function guardBody(res: Response, explain: (error: unknown) => CliError): Response {
  for (const method of ['arrayBuffer', 'text', 'json'] as const) {
    const read = res[method].bind(res) as () => Promise<unknown>;
    Object.defineProperty(res, method, { value: () => read().catch((error: unknown) => Promise.reject(error instanceof CliError ? error : explain(error))) });
  }
  return res;
}

export function createClient(server: string, apiKey: string, retry: RetryOptions = {}): Client {
  const scale = retry.delayScale ?? 1;
  const timeoutMs = retry.timeoutMs ?? 120_000;
  const serverFrom = retry.serverFrom ?? '"server" in tms.config.json';
  const send = async (method: string, path: string, init: RequestInit) => {
    // One deadline for the request and its answer's body (read by the caller through the same
    // signal): a server that accepts the connection and never answers held a CI job for 5 minutes.
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await fetch(server + path, {
        method,
        headers: { 'X-API-Key': apiKey, 'User-Agent': 'tms-cli', ...init.headers },
        ...(init.body ? { body: init.body } : {}),
        // Never followed: fetch would send X-API-Key to whatever host a redirect names, and turn a
        // POST into a GET on 301/302 (an import "done" without its file).
        redirect: 'manual',
        signal,
      });
      if (isRedirect(res.status)) {
        await res.arrayBuffer().catch(() => undefined);
        throw redirected(res, { server, path, what: `${method} ${path}`, serverFrom });
      }
      return guardBody(res, (error) => transportError(error, { server, what: `${method} ${path}`, method, timeoutMs, serverFrom, ifLost: init.ifLost }));
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw transportError(error, { server, what: `${method} ${path}`, method, timeoutMs, serverFrom, ifLost: init.ifLost });
    }
  };
  // The spec's retry guidance (section 7): 500 once after 1-2 s; 503 three times with exponential
  // backoff; 429 only when asked to wait for the quota's reset; nothing else is retried.
  const sendWithRetries = async (method: string, path: string, init: RequestInit) => {
    let res = await send(method, path, init);
    for (let attempt = 0; ; attempt++) {
      let wait: number | null = null;
      // A status the caller handles itself (a 503 that means "not published yet") is its answer.
      if (init.accept?.includes(res.status)) return res;
      if (res.status === 500 && attempt === 0) wait = 1000 + Math.random() * 1000;
      else if (res.status === 503 && attempt < 3) wait = 1000 * 2 ** attempt * (0.75 + Math.random() / 2);
      else if (res.status === 429 && retry.waitForQuota && attempt < 3) wait = retryAfterMs(res.headers.get('retry-after')) + Math.random() * 30_000;
      if (wait === null) return res;
      await res.arrayBuffer();
      if (res.status === 429) {
        const until = new Date(Date.now() + wait * scale);
        retry.onWait?.(`the daily API call quota is spent (429); waiting until ${until.toISOString().replace(/\.\d+Z$/, 'Z')} (${duration(wait * scale)}) for its reset, as --wait-for-quota asks`);
      }
      await sleep(wait * scale);
      res = await send(method, path, init);
    }
  };
  const request: Client['request'] = async (method, path, init = {}) => {
    const res = await sendWithRetries(method, path, init);
    if (res.status < 400 || init.accept?.includes(res.status)) return res;
    const text = await res.text();
    let detail: unknown = text;
    try {
      detail = (JSON.parse(text) as { detail?: unknown }).detail ?? text;
    } catch {
      // Not the API's envelope (a proxy's error page): show it as it is.
    }
    throw explain(res.status, detail, `${method} ${path}`, res.headers.get('retry-after'));
  };
  return {
    request,
    async json<T>(method: string, path: string) {
      return (await (await request(method, path)).json()) as T;
    },
  };
}
