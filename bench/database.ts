// Real-Postgres mode: DATABASE_URL is an admin connection, used only to create a throwaway
// database tms_bench_<random> and to drop it at the end. The user's own database is never written.
import { randomBytes } from 'node:crypto';
import { createSql, type Sql } from '../core/db/client.ts';

export type ThrowawayDatabase = {
  name: string;
  url: string;
  /** `select version()` of the server. */
  version: string;
  /** A client on the throwaway database (the large seed writes through it). */
  connect(max?: number): Sql;
  drop(): Promise<void>;
};

const adminClient = (url: string) => createSql(url, { max: 1, prepare: true, connectTimeoutSeconds: 5 });

export async function createThrowawayDatabase(adminUrl: string): Promise<ThrowawayDatabase> {
  const name = `tms_bench_${randomBytes(6).toString('hex')}`;
  const admin = adminClient(adminUrl);
  let version = 'unknown';
  try {
    const [row] = await admin<{ version: string }[]>`select version()`;
    version = row?.version ?? version;
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const clients: Sql[] = [];
  let dropped = false;
  return {
    name,
    url: url.toString(),
    version,
    connect(max = 4) {
      const sql = createSql(url.toString(), { max, prepare: true, connectTimeoutSeconds: 5 });
      clients.push(sql);
      return sql;
    },
    async drop() {
      if (dropped) return;
      dropped = true;
      for (const sql of clients) await sql.end({ timeout: 5 }).catch(() => {});
      const admin = adminClient(adminUrl);
      try {
        // FORCE (Postgres 13+): a service that did not stop cleanly must not keep the database alive.
        await admin.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.end({ timeout: 5 });
      }
    },
  };
}
