// Applies core/db/migrations/NNN_name.sql in order, once each, under an advisory lock so that two
// processes starting together do not race. Run at local start-up, or as an explicit deploy step
// (`npm run migrate`) for Lambda: never on a request path.
//
// Each file runs in its own transaction, as it ran when it was new: an upgrade over several files
// in one transaction failed where the files alone pass (024 rewrote key names, queuing the deferred
// content-version trigger of 007, and 025's CREATE INDEX on the same table then refused "pending
// trigger events"; an enum value added by one file cannot be used by the next in one transaction
// either). A file that fails leaves the files before it applied and recorded; the next start goes on
// from it.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Sql, TransactionSql } from './client.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const LOCK_ID = 7_142_001;

export async function migrate(sql: Sql, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f)).sort();
  // Read without the lock first: a database with nothing to apply (every start after the first)
  // takes one read, and a read-only one (the embedded one on a nearly full disk) still starts.
  const done = await appliedVersions(sql);
  const applied: string[] = [];
  for (const file of files) {
    if (done?.has(file)) continue;
    const text = await readFile(dir + file, 'utf8');
    const ran = await sql.begin(async (tx) => {
      // A migration may rewrite a large table: no per-statement deadline here.
      await tx`set local statement_timeout = 0`;
      await tx`select pg_advisory_xact_lock(${LOCK_ID})`;
      // Under the lock, asked again: another process may have applied it meanwhile.
      await tx`create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())`;
      const [found] = await tx`select 1 from schema_migrations where version = ${file}`;
      if (found) return false;
      await applyFile(tx, file, text);
      await tx`insert into schema_migrations (version) values (${file})`;
      return true;
    });
    if (ran) applied.push(file);
  }
  return applied;
}

/** The versions recorded, or null before the first migration made the table. */
async function appliedVersions(sql: Sql): Promise<Set<string> | null> {
  const [table] = await sql<{ exists: boolean }[]>`select to_regclass('schema_migrations') is not null as exists`;
  if (!table?.exists) return null;
  return new Set((await sql<{ version: string }[]>`select version from schema_migrations`).map((r) => r.version));
}

async function applyFile(tx: TransactionSql, file: string, text: string) {
  try {
    await tx.unsafe(text);
  } catch (error) {
    // Named, so that a failed upgrade says which file to look at (the ones before it are applied).
    // The error itself is kept (its SQLSTATE tells a read-only database from a bad file).
    if (error instanceof Error) {
      error.message = `migration ${file}: ${error.message}`;
      if (error.stack) error.stack = `migration ${file}: ${error.stack}`;
    }
    throw error;
  }
}
