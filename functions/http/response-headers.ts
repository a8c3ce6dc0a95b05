// Headers that middlewares know before the handler runs (request id, rate limits, CORS) are kept
// in one plain object. Hot-path handlers build their Response once with them (`respond`): the Node
// adapter then writes plain-object headers straight to the socket, with no Fetch Headers object to
// validate. Every other answer (c.json, errors) gets them added afterwards by `applyHeaders`.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.ts';

// Kept as a flat [name, value, name, value, …] list: merging objects with many different
// hyphenated keys (spread, Object.assign) costs V8 far more than writing pairs once at the end.

/** Adds headers to the answer this request will get, whichever way it is made. */
export function addHeaders(c: Context<AppEnv>, headers: Record<string, string>): void {
  let pending = c.get('pendingHeaders');
  if (!pending) c.set('pendingHeaders', (pending = []));
  for (const name in headers) pending.push(name, headers[name]!);
}

/** Forgets pending headers of these names (a later, truer value is being set another way). */
export function dropPendingHeaders(c: Context<AppEnv>, names: Record<string, string>): void {
  const pending = c.get('pendingHeaders');
  if (!pending) return;
  const kept: string[] = [];
  for (let i = 0; i < pending.length; i += 2) if (!(pending[i]! in names)) kept.push(pending[i]!, pending[i + 1]!);
  c.set('pendingHeaders', kept);
}

/**
 * A Response carrying the pending headers, built in one go (the fast path for buffered bodies).
 * `headers` is the handler's own fresh object; its entries win over pending ones of the same name.
 */
export function respond(
  c: Context<AppEnv>,
  body: Uint8Array<ArrayBuffer> | string | null,
  status: number,
  headers: Record<string, string>,
): Response {
  const pending = c.get('pendingHeaders');
  if (pending) {
    c.set('pendingHeaders', undefined);
    for (let i = 0; i < pending.length; i += 2) if (!(pending[i]! in headers)) headers[pending[i]!] = pending[i + 1]!;
  }
  return new Response(body, { status, headers });
}

/** Outermost middleware: whatever is still pending goes onto the final answer. */
export const applyHeaders = (): MiddlewareHandler<AppEnv> =>
  async function applyHeaders(c, next) {
    await next();
    const pending = c.get('pendingHeaders');
    if (!pending) return;
    c.set('pendingHeaders', undefined);
    const headers = c.res.headers;
    for (let i = 0; i < pending.length; i += 2) headers.set(pending[i]!, pending[i + 1]!);
  };

/**
 * c.json() through the fast path: one Response with plain-object headers, as `respond` builds it,
 * instead of a Fetch Headers object the pending headers are then set on one by one. For the hot
 * writes (a PUT of a value, a key creation), whose answers are small.
 */
export function respondJson(c: Context<AppEnv>, value: unknown, status: number, headers: Record<string, string> = {}): Response {
  headers['Content-Type'] = 'application/json';
  return respond(c, JSON.stringify(value), status, headers);
}
