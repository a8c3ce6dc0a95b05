// One HTTP attempt of a delivery. Never in a request's path: only the workers call this. The
// connection goes to the address resolveTarget() just checked (a custom lookup pins it, so DNS
// rebinding between the check and the connection cannot reach a private address), redirects are
// never followed (node:http does not; a 3xx is a failed attempt), and the whole attempt, name
// lookup to last byte, is bounded by the timeout (a resolver that never answers would otherwise
// hold a worker's attempt for as long as the system's resolver retries). The response body is read only up to a few KiB and
// discarded: an endpoint's answer is its status.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { hostOf, resolveTarget, TargetRefused } from './target-address.ts';

export type AttemptResult = { ok: boolean; statusCode: number | null; error: string | null };

const MAX_RESPONSE_BYTES = 16 * 1024;

export async function sendWebhook(options: {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
}): Promise<AttemptResult> {
  const url = new URL(options.url);
  const deadline = Date.now() + options.timeoutMs;
  const late: AttemptResult = { ok: false, statusCode: null, error: `no complete answer within ${options.timeoutMs} ms` };
  let address: { address: string; family: 4 | 6 };
  let lookupTimer: NodeJS.Timeout | undefined;
  try {
    // The lookup itself cannot be cancelled (it runs on libuv's pool); the attempt stops waiting for it.
    const lookedUp = await Promise.race([
      resolveTarget(hostOf(url), options.allowPrivate),
      new Promise<null>((resolve) => (lookupTimer = setTimeout(resolve, options.timeoutMs, null))),
    ]);
    if (lookedUp === null) return { ...late, error: `${late.error} (the host's name was not resolved in time)` };
    [address] = lookedUp as [{ address: string; family: 4 | 6 }];
  } catch (error) {
    return { ok: false, statusCode: null, error: error instanceof TargetRefused ? `refused: ${error.message}` : 'the host could not be resolved' };
  } finally {
    clearTimeout(lookupTimer);
  }
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };
  const body = Buffer.from(options.body, 'utf8');
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = send(url, {
      method: 'POST',
      lookup,
      agent: false,
      headers: {
        ...options.headers,
        'content-type': 'application/json',
        'content-length': String(body.length),
        'user-agent': 'tms-webhooks/1',
      },
    });
    const timer = setTimeout(() => {
      finish(late);
      req.destroy();
    }, Math.max(0, deadline - Date.now()));
    req.on('error', (error: NodeJS.ErrnoException) => finish({ ok: false, statusCode: null, error: describeError(error) }));
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) {
          res.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', done);
      function done() {
        if (status >= 200 && status < 300) return finish({ ok: true, statusCode: status, error: null });
        const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
        finish({ ok: false, statusCode: status, error: `HTTP ${status}${redirect}` });
      }
    });
    req.end(body);
  });
}

/** A network error in words that name no secret and no more of the deployment than the endpoint's own address. */
function describeError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      return error.code ? `network error (${error.code})` : 'network error';
  }
}
