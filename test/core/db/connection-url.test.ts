// DATABASE_URL in libpq's forms for a Unix socket or another host: `?host=/var/run/postgresql`
// (as psql takes it, for a Postgres on the same machine, peer authentication included) and
// `?host=...&port=...`, and `sslrootcert=system`. postgres.js sent them to the server as settings,
// which refused the connection with `unrecognized configuration parameter "host"`. libpq settings it
// cannot honour (`channel_binding`, a client certificate, a CA file) are refused at start instead.
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSql } from '../../../core/db/client.ts';
import { fromLibpqParameters, unusableLibpqParameter } from '../../../core/db/libpq-parameters.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../../core/db/embedded.ts';

describe('libpq host and port parameters', () => {
  it('turn a socket directory into the socket file, and any other host or port into the URL’s own', () => {
    expect(fromLibpqParameters('postgres://tms@localhost/tms?host=/var/run/postgresql')).toEqual({ url: 'postgres://tms@localhost/tms', path: '/var/run/postgresql/.s.PGSQL.5432' });
    expect(fromLibpqParameters('postgresql:///tms?host=/tmp/&port=5433&sslmode=disable')).toEqual({ url: 'postgresql://localhost/tms?sslmode=disable', path: '/tmp/.s.PGSQL.5433' });
    expect(fromLibpqParameters('postgres://tms:secret@localhost:6543/tms?host=/run/pg')).toEqual({ url: 'postgres://tms:secret@localhost:6543/tms', path: '/run/pg/.s.PGSQL.6543' });
    expect(fromLibpqParameters('postgres://tms@placeholder/tms?host=db.internal&port=6432')).toEqual({ url: 'postgres://tms@db.internal:6432/tms', path: undefined });
    // sslrootcert=system: verify-full against the system's roots, as libpq takes it, and not sent to the server.
    expect(fromLibpqParameters('postgres://tms@db.example/tms?sslrootcert=system')).toEqual({ url: 'postgres://tms@db.example/tms?sslmode=verify-full', path: undefined });
    expect(fromLibpqParameters('postgres://tms@db.example/tms?sslmode=require&sslrootcert=system')).toEqual({ url: 'postgres://tms@db.example/tms?sslmode=verify-full', path: undefined });
    // Without them the URL passes through untouched.
    expect(fromLibpqParameters('postgres://tms@db.internal:5432/tms?sslmode=require')).toEqual({ url: 'postgres://tms@db.internal:5432/tms?sslmode=require', path: undefined });
  });

  it('that postgres.js cannot honour are refused by name, with what to do, before a connection is tried', () => {
    expect(unusableLibpqParameter('postgres://tms@db.example/tms?sslmode=verify-full&channel_binding=require')).toMatch(
      /^channel_binding is a libpq setting .* remove it \(TLS with sslmode=verify-full still authenticates the server\)$/,
    );
    expect(unusableLibpqParameter('postgres://tms@db.example/tms?sslcert=/etc/tms/client.crt')).toMatch(/^sslcert is a libpq setting/);
    expect(unusableLibpqParameter('postgres://tms@db.example/tms?sslmode=verify-full&sslrootcert=/etc/ssl/rds-global-bundle.pem')).toBe(
      'sslrootcert=/etc/ssl/rds-global-bundle.pem: tms\'s Postgres client reads no certificate file; remove it and start tms with NODE_EXTRA_CA_CERTS=/etc/ssl/rds-global-bundle.pem (Node then trusts that CA; keep sslmode=verify-full), or use sslrootcert=system',
    );
    for (const fine of ['postgres://tms@db.example/tms?sslmode=verify-full&sslrootcert=system&application_name=tms', 'postgres://tms@localhost/tms?host=/var/run/postgresql&connect_timeout=5']) {
      expect(unusableLibpqParameter(fine)).toBeUndefined();
    }
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
