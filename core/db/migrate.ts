// Applies core/db/migrations/NNN_name.sql in order, once each, under an advisory lock so that two
// processes starting together do not race. Run at local start-up, or as an explicit deploy step
// (`npm run migrate`) for Lambda: never on a request path.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Sql } from './client.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const LOCK_ID = 7_142_001;

export async function migrate(sql: Sql, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f)).sort();
  const applied: string[] = [];
  await sql.begin(async (tx) => {
    // A migration may rewrite a large table: no per-statement deadline here.
    await tx`set local statement_timeout = 0`;
    await tx`select pg_advisory_xact_lock(${LOCK_ID})`;
    // Created only when missing: `create table if not exists` counts as a write even when the table
    // is there, and a read-only database (the embedded one on a nearly full disk) with nothing to
    // apply must still start.
    const [found] = await tx<{ exists: boolean }[]>`select to_regclass('schema_migrations') is not null as exists`;
    if (!found?.exists) {
      await tx`create table schema_migrations (version text primary key, applied_at timestamptz not null default now())`;
    }
    const done = new Set((await tx<{ version: string }[]>`select version from schema_migrations`).map((r) => r.version));
    for (const file of files) {
      if (done.has(file)) continue;
      await tx.unsafe(await readFile(dir + file, 'utf8'));
      await tx`insert into schema_migrations (version) values (${file})`;
      applied.push(file);
    }
  });
  return applied;
}
