// DATABASE_URL in libpq's forms for a Unix socket or another host: `?host=/var/run/postgresql`
// (as psql takes it, for a Postgres on the same machine, peer authentication included) and
// `?host=...&port=...`. postgres.js reads neither: it sent them to the server as settings, which
// refused the connection with `unrecognized configuration parameter "host"`.
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSql, libpqHost } from '../../../core/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../../core/db/embedded.ts';

describe('libpq host and port parameters', () => {
  it('turn a socket directory into the socket file, and any other host or port into the URL’s own', () => {
    expect(libpqHost('postgres://tms@localhost/tms?host=/var/run/postgresql')).toEqual({ url: 'postgres://tms@localhost/tms', path: '/var/run/postgresql/.s.PGSQL.5432' });
    expect(libpqHost('postgresql:///tms?host=/tmp/&port=5433&sslmode=disable')).toEqual({ url: 'postgresql://localhost/tms?sslmode=disable', path: '/tmp/.s.PGSQL.5433' });
    expect(libpqHost('postgres://tms:secret@localhost:6543/tms?host=/run/pg')).toEqual({ url: 'postgres://tms:secret@localhost:6543/tms', path: '/run/pg/.s.PGSQL.6543' });
    expect(libpqHost('postgres://tms@placeholder/tms?host=db.internal&port=6432')).toEqual({ url: 'postgres://tms@db.internal:6432/tms', path: undefined });
    // Without them the URL passes through untouched.
    expect(libpqHost('postgres://tms@db.internal:5432/tms?sslmode=require')).toEqual({ url: 'postgres://tms@db.internal:5432/tms?sslmode=require', path: undefined });
  });

  let embedded: EmbeddedPostgres | undefined;
  afterAll(async () => embedded?.close());

  it('connect through the Unix socket a `?host=` directory names', async () => {
    // The embedded database listens on a Unix socket file `.s.PGSQL.5432`, as Postgres does.
    embedded = await startEmbeddedPostgres({});
    const sql = createSql(`postgres://postgres@localhost/postgres?host=${encodeURIComponent(dirname(embedded.path!))}`, { max: 1, prepare: true, connectTimeoutSeconds: 5 });
    try {
      const [row] = await sql<{ answer: number }[]>`select 41 + 1 as answer`;
      expect(row!.answer).toBe(42);
    } finally {
      await sql.end();
    }
  });
});
