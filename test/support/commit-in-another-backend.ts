// Races made exact on real Postgres: a statement committed by another backend (psql, a process of
// its own, so this process's event loop is not needed) at the moment the service sends a given
// query, as a concurrent request on another connection would have it.
import { execFileSync } from 'node:child_process';
import type { Sql } from '../../core/db/client.ts';

/** The URL of the database `sql` is connected to (tests each get their own database). */
export async function databaseUrl(sql: Sql): Promise<string> {
  const [{ db }] = (await sql`select current_database() as db`) as unknown as [{ db: string }];
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${db}`;
  return url.toString();
}

/**
 * Runs `statement` in another backend, synchronously, the first time `sql` sends a query matching
 * `when`; the returned function stops watching.
 */
export function onQuery(sql: Sql, when: RegExp, url: string, statement: string): () => void {
  const options = sql.options as { debug?: unknown };
  let fired = false;
  options.debug = (_connection: number, query: string) => {
    if (fired || !when.test(query)) return;
    fired = true;
    // Bounded: a fix that made this wait on a lock the request holds must not hang the test (the
    // event loop is blocked meanwhile); the write then simply does not happen.
    try {
      execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qc', statement], { timeout: 5_000, env: { ...process.env, PGOPTIONS: '-c lock_timeout=2000' }, stdio: 'pipe' });
    } catch {
      // not written: the request then meets no race at all
    }
  };
  return () => {
    options.debug = false;
  };
}
