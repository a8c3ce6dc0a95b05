// Stored answers for Idempotency-Key (migration 009). The claim and the stored answer are written in
// the caller's transaction, the write's own: they commit together or not at all.
import type { Sql, TransactionSql } from './client.ts';

/** How long an answer is replayed; after that the key may be used again. */
export const IDEMPOTENCY_TTL_HOURS = 24;

export type StoredAnswer = { fingerprint: string; status: number; body: string };

/** The committed answer for this key, if any, younger than the TTL. */
export async function findAnswer(sql: Sql | TransactionSql, scope: string, key: string): Promise<StoredAnswer | undefined> {
  const [row] = await sql<StoredAnswer[]>`
    select fingerprint, status, body from idempotency_keys
    where scope = ${scope} and key = ${key} and created_at > now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`;
  return row;
}

/**
 * Takes the key for this transaction. A concurrent request with the same key waits here until the
 * first commits or rolls back (the primary key's lock): false means an answer was committed first,
 * which the caller replays. An expired row is taken over. Now and then expired rows are cleared.
 */
export async function claimKey(sql: TransactionSql, scope: string, key: string, fingerprint: string): Promise<boolean> {
  const rows = await sql`
    insert into idempotency_keys (scope, key, fingerprint, status, body)
    values (${scope}, ${key}, ${fingerprint}, 0, '')
    on conflict (scope, key) do update
      set fingerprint = excluded.fingerprint, status = 0, body = '', created_at = now()
      where idempotency_keys.created_at <= now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
    returning 1`;
  if (rows.length > 0 && Math.random() < 0.01) {
    // Rows another transaction holds are left to a later cleanup: a claim runs inside the caller's
    // transaction (a portal import's, for as long as the import), so waiting here could queue behind
    // it, or close a cycle with another cleanup that holds rows this one wants.
    await sql`
      delete from idempotency_keys where ctid = any(array(
        select ctid from idempotency_keys
        where created_at <= now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS}) limit 1000 for update skip locked))`;
  }
  return rows.length > 0;
}

export async function storeAnswer(sql: TransactionSql, scope: string, key: string, answer: { status: number; body: string }): Promise<void> {
  await sql`update idempotency_keys set status = ${answer.status}, body = ${answer.body} where scope = ${scope} and key = ${key}`;
}
