// `tms publish`: queues a rebuild of the cached files apps read; with --wait, waits until a build
// newer than the request is ready: until the server says no requested build is pending. A changed
// last_rebuilt_at alone is not enough: a build that started before the request (an auto-publish)
// can finish meanwhile without the latest writes. Servers without `pending` get that comparison.
// Every status read counts against the daily API call quota the project's apps share, so the waits
// between reads double, and a build the server reports failed ends the wait at once.
import type { Client } from '../client.ts';
import type { Context } from '../context.ts';
import { CliError, EXIT } from '../errors.ts';
import { timeoutSeconds as timeoutOf } from '../flags.ts';

export const PUBLISH_HELP = `tms publish [--wait] [--timeout SECONDS] [--json]

Queues a rebuild of the cache apps read (/v1/cached/...).
--wait           wait until a build newer than the request is ready
--timeout S      how long --wait waits, in whole seconds (default 120, at most 86400; exit 1
                 when it passes, or at once when the server reports the build failed)
Common: --api-key KEY (else TMS_API_KEY), --config FILE, --json, --wait-for-quota`;

/** GET /v1/cache/status; the fields after `ready` are this server's additions (older servers lack them). */
type CacheStatus = {
  last_rebuilt_at: string | null;
  ready: boolean;
  pending?: boolean;
  build_state?: 'idle' | 'queued' | 'building' | 'failed';
  failed_at?: string | null;
  last_error?: string | null;
};

/** The first wait between status reads, and the longest: a small project builds in well under a second. */
const FIRST_POLL_MS = 500;
const MAX_POLL_MS = 10_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The requested build is out: nothing requested is pending (or, on older servers, a new build time). */
function isBuilt(now: CacheStatus, before: CacheStatus): boolean {
  const built = now.pending === undefined ? now.last_rebuilt_at !== before.last_rebuilt_at : !now.pending;
  return now.ready && now.last_rebuilt_at !== null && built;
}

/**
 * A build failed since the request. failed_at is compared with the status read before it: a
 * failure recorded earlier still shows as "failed" until the worker takes the new request.
 */
function hasFailed(now: CacheStatus, before: CacheStatus): boolean {
  return now.build_state === 'failed' && now.failed_at != null && now.failed_at !== before.failed_at;
}

export async function publish(ctx: Context, client: Client, flags: { wait?: boolean; timeout?: string }) {
  const timeoutSeconds = timeoutOf(flags.timeout, Boolean(flags.wait));
  const before = await client.json<CacheStatus>('GET', '/v1/cache/status');
  await client.request('POST', '/v1/cache/rebuild');
  if (!flags.wait) {
    ctx.out.line('rebuild queued');
    ctx.out.result({ queued: true, ready: before.ready, last_rebuilt_at: before.last_rebuilt_at });
    return 0;
  }
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (let delay = FIRST_POLL_MS; ; delay = Math.min(delay * 2, MAX_POLL_MS)) {
    const now = await client.json<CacheStatus>('GET', '/v1/cache/status');
    if (isBuilt(now, before)) {
      ctx.out.line(`published: built ${now.last_rebuilt_at}`);
      ctx.out.result({ queued: true, ready: true, last_rebuilt_at: now.last_rebuilt_at });
      return 0;
    }
    if (hasFailed(now, before)) {
      throw new CliError(
        `the rebuild failed on the server at ${now.failed_at}: ${now.last_error ?? 'no reason given'} ` +
          '(the server retries it by itself: run tms publish --wait again to wait for the retry, or check GET /v1/cache/status)',
        EXIT.failed,
      );
    }
    const left = deadline - Date.now();
    if (left <= 0) throw new CliError(`the rebuild was queued but not ready after ${timeoutSeconds} s; check GET /v1/cache/status`, EXIT.failed);
    // The last wait ends at the deadline, for one more read before giving up.
    await sleep(Math.min(delay, left));
  }
}
