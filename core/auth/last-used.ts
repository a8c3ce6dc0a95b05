// When each API key was last used, without a database write per request: authentication is on the
// hot path (cached reads answer thousands of requests a second from memory), and one UPDATE per
// request would make every one of them a write.
//
// Each process remembers when it last wrote a key's time and writes again only once `intervalMs`
// has passed: at most one write per key per interval per process, whatever the traffic. The write
// is fired and not awaited (the request never waits for it), and is itself conditional, so that
// several processes (replicas, Lambdas) touching the same key within the interval change the row
// once. A failed write is logged once per interval and forgotten: last use is a hint for
// operators ("is this key still used?"), precise to about the interval, not an audit log.
// docs/decisions.md, "API keys: names, last use, delivery keys".
import type { Sql } from '../db/client.ts';
import type { Logger } from '../log.ts';

export const LAST_USED_INTERVAL_MS = 60_000;

export type LastUsedRecorder = {
  /** Notes a use of the key: cheap (one map lookup) unless a write is due. */
  touch(apiKeyId: string): void;
  /** Resolves once the writes fired so far have finished (tests, shutdown). */
  settled(): Promise<void>;
};

export function createLastUsedRecorder(options: {
  sql: Sql;
  log: Logger;
  intervalMs?: number;
  now?: () => number;
  maxEntries?: number;
}): LastUsedRecorder {
  const { sql, log } = options;
  const intervalMs = options.intervalMs ?? LAST_USED_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  const writtenAt = new Map<string, number>();
  const pending = new Set<Promise<void>>();
  const seconds = Math.max(1, Math.floor(intervalMs / 1000));

  const write = (apiKeyId: string) => {
    const done: Promise<void> = sql`
      update api_keys set last_used_at = now()
      where id = ${apiKeyId} and (last_used_at is null or last_used_at < now() - make_interval(secs => ${seconds}))`
      .then(
        () => undefined,
        (error: unknown) => log.warn('api key last use not recorded', { api_key_id: apiKeyId, error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => pending.delete(done));
    pending.add(done);
  };

  return {
    touch(apiKeyId) {
      const at = now();
      const last = writtenAt.get(apiKeyId);
      if (last !== undefined && at - last < intervalMs) return;
      writtenAt.delete(apiKeyId);
      writtenAt.set(apiKeyId, at);
      if (writtenAt.size > maxEntries) writtenAt.delete(writtenAt.keys().next().value as string);
      write(apiKeyId);
    },
    async settled() {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}
