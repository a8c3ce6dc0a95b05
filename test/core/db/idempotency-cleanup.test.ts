// Claiming an Idempotency-Key (or a portal form's one-time token) now and then deletes expired
// rows. The claim runs in the caller's transaction, which for a portal import lasts as long as the
// import, so the cleanup takes only rows no one else holds: it never waits, and so never queues
// behind a long transaction or closes a cycle with another cleanup.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../support/test-app.ts';
import { usingRealPostgres } from '../../support/test-database.ts';
import { claimKey } from '../../../core/db/idempotency-keys.ts';

const t = useTestApp();
afterEach(() => vi.restoreAllMocks());

async function expired(scope: string, keys: string[]) {
  const sql = t.runtime.deps.sql;
  for (const key of keys) {
    await sql`insert into idempotency_keys (scope, key, fingerprint, status, body, created_at) values (${scope}, ${key}, 'f', 200, '{}', now() - interval '25 hours')`;
  }
}
const left = async (scope: string) =>
  (await t.runtime.deps.sql<{ key: string }[]>`select key from idempotency_keys where scope = ${scope} order by key`).map((r) => r.key);

describe('the cleanup of expired claims', () => {
  it('deletes expired rows when it runs, and keeps the claim it made', async () => {
    const scope = `cleanup:${randomUUID()}`;
    await expired(scope, ['old-1', 'old-2']);
    vi.spyOn(Math, 'random').mockReturnValue(0); // the 1-in-100 cleanup runs
    expect(await t.runtime.deps.sql.begin((tx) => claimKey(tx, scope, 'new', 'f'))).toBe(true);
    expect(await left(scope)).toEqual(['new']);
  });

  it.runIf(usingRealPostgres())('skips a row another transaction holds, without waiting for it', async () => {
    const sql = t.runtime.deps.sql;
    const scope = `cleanup:${randomUUID()}`;
    await expired(scope, ['held', 'old']);
    let release!: () => void;
    let holding!: () => void;
    const held = new Promise<void>((r) => (holding = r));
    const holder = sql.begin(async (tx) => {
      await tx`select 1 from idempotency_keys where scope = ${scope} and key = 'held' for update`;
      holding();
      await new Promise<void>((r) => (release = r));
    });
    await held;
    try {
      vi.spyOn(Math, 'random').mockReturnValue(0);
      // Waiting for the held row would end this transaction with a lock timeout (55P03).
      const claimed = await sql.begin(async (tx) => {
        await tx`set local lock_timeout = '1s'`;
        return claimKey(tx, scope, 'new', 'f');
      });
      expect(claimed).toBe(true);
      expect(await left(scope)).toEqual(['held', 'new']);
    } finally {
      release();
      await holder;
    }
  });
});
