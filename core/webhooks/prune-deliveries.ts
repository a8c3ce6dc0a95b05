// Finished deliveries (sent, or given up) are kept WEBHOOKS_RETENTION_DAYS for the delivery log and
// replays, then deleted: each carries its whole signed body (a translations.changed names up to 1,000
// keys), one per endpoint per event, and the table otherwise only grew. Pending ones are never
// pruned (a retry window ends them first). Run by the Postgres worker every PRUNE_EVERY_MS and by
// the AWS sweep each minute, a bounded batch at a time.
import type { Deps } from '../deps.ts';

/** The most rows one call deletes: a backlog goes in steps, never one long statement. */
export const PRUNE_BATCH = 5_000;
/** How often a long-running worker prunes. */
export const PRUNE_EVERY_MS = 10 * 60_000;

/** Deletes up to PRUNE_BATCH finished deliveries older than the retention; returns how many. */
export async function pruneDeliveries(deps: Pick<Deps, 'sql' | 'config'>): Promise<number> {
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
