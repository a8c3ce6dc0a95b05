// The embedded default: PGlite (Postgres compiled to WebAssembly) served over the Postgres wire
// protocol by pglite-socket, so that postgres.js stays the only SQL client in every mode.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { lockDataDir } from './data-dir-lock.ts';

export type EmbeddedPostgres = {
  /** The connection URL; with `path` set, the socket file to connect through instead of TCP. */
  url: string;
  path: string | undefined;
  close(): Promise<void>;
};

/**
 * PGlite runs one backend, and pglite-socket multiplexes every socket onto it. Under concurrency
 * the extended-protocol messages of two sockets interleave (seen: `portal "" does not exist`, and
 * worse, a query answered with another's empty result). So the pool gets exactly one connection,
 * and the socket takes exactly one: nothing is lost, since the single backend serializes all work
 * anyway, and no other client can take the service's place or starve it.
 */
export const EMBEDDED_POOL_MAX = 1;

/**
 * Extensions the migrations create (translation memory's trigram search, its index bounded by the
 * account through btree_gin); every PGlite opens with them.
 */
export const PGLITE_EXTENSIONS = { btree_gin, pg_trgm };
const SOCKET_MAX_CONNECTIONS = 1;

/**
 * The embedded database has no passwords and one superuser. So it listens on a Unix socket in a
 * directory only this user can enter (mkdtemp: 0700): no other local user can connect at all, as
 * they could to a TCP port on 127.0.0.1. `tcp: true` is for tests that put a proxy in front of it.
 */
export async function startEmbeddedPostgres(options: {
  /** Directory for the data files; omitted means in memory. */
  dataDir?: string;
  /** A dumpDataDir() tarball to start from (tests clone a migrated template this way). */
  loadDataDir?: Blob;
  tcp?: boolean;
}): Promise<EmbeddedPostgres> {
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const lock = options.dataDir ? await lockDataDir(options.dataDir) : undefined;
  const db = await PGlite.create({
    extensions: PGLITE_EXTENSIONS,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  }).catch(async (error: unknown) => {
    await lock?.release();
    throw error;
  });
  const socketDir = options.tcp ? undefined : await mkdtemp(join(tmpdir(), 'tms-pg-'));
  const path = socketDir ? join(socketDir, '.s.PGSQL.5432') : undefined;
  const server = new PGLiteSocketServer({
    db,
    ...(path ? { path } : { host: '127.0.0.1', port: 0 }),
    maxConnections: SOCKET_MAX_CONNECTIONS,
  });
  await server.start();
  const url = path ? 'postgres://postgres@localhost/postgres' : `postgres://postgres@${server.getServerConn()}/postgres`;
  return {
    url,
    path,
    async close() {
      await server.stop();
      await db.close();
      await lock?.release();
      if (socketDir) await rm(socketDir, { recursive: true, force: true });
    },
  };
}
