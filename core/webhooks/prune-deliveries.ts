// Finished deliveries (sent, or given up) are kept WEBHOOKS_RETENTION_DAYS for the delivery log and
// replays, then deleted: each carries its whole signed body (a translations.changed names up to 1,000
// keys), one per endpoint per event, and the table otherwise only grew. A pending one ends with its
// retry window: a failed attempt judges the window, and so does this, for the deliveries no attempt
// comes to (their endpoint turned off, by hand or by tms), which otherwise stayed pending for good
// and went out, months old, when the endpoint was turned on again. Run by the Postgres worker every
// PRUNE_EVERY_MS and by the AWS sweep each minute, a bounded batch at a time.
import type { Deps } from '../deps.ts';
import type { Sql, TransactionSql } from '../db/client.ts';

/** The most rows one call deletes: a backlog goes in steps, never one long statement. */
export const PRUNE_BATCH = 5_000;
/** How often a long-running worker prunes. */
export const PRUNE_EVERY_MS = 10 * 60_000;

/** What the delivery log says of a delivery whose retry window ended with no attempt to end it. */
export const WINDOW_ENDED = 'Given up: its retry window ended with no attempt (the webhook was off, or no worker ran)';

/** Whether a delivery's retry window has ended (SQL, on webhook_deliveries). */
export const windowEnded = (sql: Sql | TransactionSql, config: Deps['config']) =>
  sql`created_at < now() - make_interval(secs => ${config.WEBHOOKS_RETRY_WINDOW_SECONDS})`;

/**
 * Gives up, as failed, up to PRUNE_BATCH pending deliveries whose retry window has ended and that no
 * worker holds; then deletes up to PRUNE_BATCH finished deliveries older than the retention. Returns
 * how many it deleted.
 */
export async function pruneDeliveries(deps: Pick<Deps, 'sql' | 'config'>): Promise<number> {
  // Pending ones through their due index (all pending deliveries: few, unless endpoints are off).
  await deps.sql`
    update webhook_deliveries set status = 'failed', next_attempt_at = null, queued_at = null,
      last_error = coalesce(last_error, ${WINDOW_ENDED})
    where id in (
      select id from webhook_deliveries
      where status = 'pending' and ${windowEnded(deps.sql, deps.config)} and (lease_until is null or lease_until < now())
      limit ${PRUNE_BATCH}
      for update skip locked)`;
  // Oldest first through the finished deliveries' own index (migration 022); rows another
  // transaction holds (a replay reading its original) are left to the next call.
  const rows = await deps.sql`
    delete from webhook_deliveries where id in (
      select id from webhook_deliveries
      where status <> 'pending' and created_at < now() - make_interval(days => ${deps.config.WEBHOOKS_RETENTION_DAYS})
      order by created_at
      limit ${PRUNE_BATCH}
      for update skip locked)`;
  return rows.count;
}
