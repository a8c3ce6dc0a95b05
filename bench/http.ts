// A small keep-alive HTTP client over node:http. Not fetch: fetch decodes Content-Encoding, and the
// benchmarks need the exact bytes and headers the service sent (the ceiling server replays them).
// The seed's 40,000 calls go through a leaner one (createJsonPool, undici's Pool).
import { Agent, request } from 'node:http';
import { Pool } from 'undici';

export type RawResponse = {
  status: number;
  /** Header name/value pairs as sent, names in their original case. */
  rawHeaders: [string, string][];
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
};

/** A JSON body, or raw bytes sent as they are (file imports). */
export type SendOptions = { headers?: Record<string, string>; json?: unknown; raw?: Buffer };

export type HttpClient = {
  send(method: string, path: string, options?: SendOptions): Promise<RawResponse>;
  /** send() that insists on one status and parses the JSON body. */
  json<T>(method: string, path: string, expected: number, options?: SendOptions): Promise<T>;
  close(): void;
};

export function createHttpClient(baseUrl: string, maxSockets = 16): HttpClient {
  const base = new URL(baseUrl);
  // Idle sockets are dropped after 4 s, before node:http servers' 5 s keep-alive timeout closes them.
  const agent = new Agent({ keepAlive: true, maxSockets, timeout: 4_000 });

  const send: HttpClient['send'] = async (method, path, options = {}) => {
    try {
      return await sendOnce(method, path, options);
    } catch (error) {
      // A kept-alive socket the server closed just as we reused it: the request never reached the
      // server, so sending it again is safe (the retry Node's documentation recommends).
      if ((error as { reusedSocket?: boolean }).reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
        return sendOnce(method, path, options);
      }
      throw error;
    }
  };

  const sendOnce: HttpClient['send'] = (method, path, options = {}) =>
    new Promise((resolve, reject) => {
      const body = options.raw ?? (options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json)));
      const req = request(
        {
          agent,
          host: base.hostname,
          port: base.port,
          method,
          path,
          headers: {
            ...options.headers,
            ...(body ? { 'Content-Type': options.raw ? 'application/octet-stream' : 'application/json', 'Content-Length': String(body.length) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const rawHeaders: [string, string][] = [];
            for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) rawHeaders.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
            resolve({ status: res.statusCode ?? 0, rawHeaders, headers: res.headers, body: Buffer.concat(chunks) });
          });
        },
      );
      req.on('error', (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
      req.end(body);
    });

  return {
    send,
    async json<T>(method: string, path: string, expected: number, options = {}) {
      const res = await send(method, path, options);
      if (res.status !== expected) {
        throw new Error(`${method} ${path}: expected ${expected}, got ${res.status}: ${res.body.toString('utf8').slice(0, 500)}`);
      }
      return (res.body.length ? JSON.parse(res.body.toString('utf8')) : undefined) as T;
    },
    close: () => agent.destroy(),
  };
}

/** Only JSON calls whose exact headers do not matter: the seed's. */
export type JsonClient = Pick<HttpClient, 'json' | 'close'>;

/**
 * JSON calls over undici's Pool, `connections` kept alive, one request at a time on each. The seed
 * measures the service, but its client shares this machine's two cores: over eight alternated seeds
 * of one service (2026-12-06), node:http's client cost 88-140 us of CPU per request (100-140 in a
 * fresh process, as the bench's seed runs), undici's 78-90; what the client does not burn, the
 * service and Postgres can use.
 */
export function createJsonPool(baseUrl: string, connections: number): JsonClient {
  const pool = new Pool(baseUrl, { connections, pipelining: 1 });
  return {
    async json<T>(method: string, path: string, expected: number, options: Omit<SendOptions, 'raw'> = {}) {
      const body = options.json === undefined ? undefined : JSON.stringify(options.json);
      const headers = body === undefined ? { ...options.headers } : { ...options.headers, 'content-type': 'application/json' };
      const res = await pool.request({ method: method as 'GET', path, headers, body });
      const text = await res.body.text();
      if (res.statusCode !== expected) throw new Error(`${method} ${path}: expected ${expected}, got ${res.statusCode}: ${text.slice(0, 500)}`);
      return (text.length ? JSON.parse(text) : undefined) as T;
    },
    close: () => void pool.destroy(),
  };
}

/** Runs `task` over `items` with at most `limit` in flight; the first failure stops the rest. */
export async function forEachLimit<T>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        await task(items[index]!, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
