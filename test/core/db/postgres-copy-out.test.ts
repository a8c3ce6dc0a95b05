// COPY ... TO STDOUT through postgres.js (vendor/postgres-3.4.9-tms.3.tgz, vendor/README.md). Copy
// data that fills the readable stream's buffer pauses the socket; when the end of the copy came in
// the same chunk, nothing resumed it, and the next query on that connection waited forever
// (porsager/postgres#499). `npm run copy-to-postgres` reads table after table this way.
import { afterAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../../core/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../../core/db/embedded.ts';

let embedded: EmbeddedPostgres | undefined;
let sql: Sql;
afterAll(async () => {
  await sql?.end({ timeout: 1 });
  await embedded?.close();
});

async function connect(): Promise<Sql> {
  if (process.env.DATABASE_URL) return createSql(process.env.DATABASE_URL, { max: 1, prepare: false, connectTimeoutSeconds: 10 });
  embedded = await startEmbeddedPostgres({});
  return createSql(embedded.url, { path: embedded.path, max: 1, prepare: false, connectTimeoutSeconds: 10 });
}

describe('COPY TO STDOUT', () => {
  it('leaves the connection usable after copies larger than the stream buffer', async () => {
    sql = await connect();
    for (const rows of [100, 1_000, 20_000]) {
      const readable = await sql.unsafe(`copy (select repeat('x', 40) from generate_series(1, ${rows})) to stdout`).readable();
      let bytes = 0;
      for await (const chunk of readable) bytes += (chunk as Buffer).length;
      expect(bytes).toBe(rows * 41);
      // Hung here before the fix (from 400 rows: 16 KiB, the stream's high-water mark).
      const next = await Promise.race([
        sql`select ${rows}::int as rows`.then((r) => r[0]!.rows),
        new Promise((resolve) => setTimeout(() => resolve('no answer within 5 s'), 5_000)),
      ]);
      expect(next).toBe(rows);
    }
  }, 30_000);
});
