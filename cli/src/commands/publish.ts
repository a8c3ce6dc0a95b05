// `tms publish`: queues a rebuild of the cached files apps read; with --wait, waits until a build
// newer than the request is ready: until the server says no requested build is pending. A changed
// last_rebuilt_at alone is not enough: a build that started before the request (an auto-publish)
// can finish meanwhile without the latest writes. Servers without `pending` get that comparison.
import type { Client } from '../client.ts';
import type { Context } from '../context.ts';
import { CliError, EXIT } from '../errors.ts';
import { timeoutSeconds as timeoutOf } from '../flags.ts';

export const PUBLISH_HELP = `tms publish [--wait] [--timeout SECONDS] [--json]

Queues a rebuild of the cache apps read (/v1/cached/...).
--wait           wait until a build newer than the request is ready
--timeout S      how long --wait waits, in whole seconds (default 120, at most 86400; exit 1
                 when it passes)
Common: --api-key KEY (else TMS_API_KEY), --config FILE, --json, --wait-for-quota`;

type CacheStatus = { last_rebuilt_at: string | null; ready: boolean; pending?: boolean };

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
  for (;;) {
    const now = await client.json<CacheStatus>('GET', '/v1/cache/status');
    const built = now.pending === undefined ? now.last_rebuilt_at !== before.last_rebuilt_at : !now.pending;
    if (now.ready && now.last_rebuilt_at !== null && built) {
      ctx.out.line(`published: built ${now.last_rebuilt_at}`);
      ctx.out.result({ queued: true, ready: true, last_rebuilt_at: now.last_rebuilt_at });
      return 0;
    }
    if (Date.now() > deadline) throw new CliError(`the rebuild was queued but not ready after ${timeoutSeconds} s; check GET /v1/cache/status`, EXIT.failed);
    await new Promise((r) => setTimeout(r, 250));
  }
}
