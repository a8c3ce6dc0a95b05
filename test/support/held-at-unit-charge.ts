// An import (or the portal's Apply) reads, decides, charges its translation units, then writes.
// Holding the account's unit row in another transaction stops it at its charge: after its read,
// before its write, where a concurrent request that takes no project lock (a PUT, a DELETE) can
// land. Real Postgres only (PGlite runs one statement at a time); the row must exist (an earlier
// charge of the account made it).
import type { Sql } from '../../core/db/client.ts';

/** `request`, held at its charge while `meanwhile` runs; then released, and its answer. */
export async function heldAtUnitCharge<T>(sql: Sql, accountId: string, request: () => Promise<T>, meanwhile: () => Promise<unknown>): Promise<T> {
  const holder = await sql.reserve();
  try {
    await holder`begin`;
    const [{ pid }] = (await holder`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
    const [held] = await holder`select used from translation_unit_usage where account_id = ${accountId} for update`;
    if (!held) throw new Error('the account has no translation-unit row to hold yet: charge it once first');
    const pending = request();
    const deadline = Date.now() + 10_000;
    while ((await sql`select 1 from pg_stat_activity where datname = current_database() and ${pid}::int = any(pg_blocking_pids(pid))`).length === 0) {
      if (Date.now() > deadline) throw new Error('the request never waited on its charge');
      await new Promise((r) => setTimeout(r, 10));
    }
    await meanwhile();
    await holder`commit`;
    return await pending;
  } finally {
    holder.release();
  }
}
