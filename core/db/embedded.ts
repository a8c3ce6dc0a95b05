// The embedded default: PGlite (Postgres compiled to WebAssembly) served over the Postgres wire
// protocol by pglite-socket, so that postgres.js stays the only SQL client in every mode.
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export type EmbeddedPostgres = { url: string; close(): Promise<void> };

/**
 * PGlite runs one backend, and pglite-socket multiplexes every socket onto it. Under concurrency
 * the extended-protocol messages of two sockets interleave (seen: `portal "" does not exist`, and
 * worse, a query answered with another's empty result). So the pool gets exactly one connection:
 * nothing is lost, since the single backend serializes all work anyway. One spare socket lets an
 * operator attach psql while the service runs.
 */
export const EMBEDDED_POOL_MAX = 1;
const SOCKET_MAX_CONNECTIONS = 2;

export async function startEmbeddedPostgres(options: {
  /** Directory for the data files; omitted means in memory. */
  dataDir?: string;
  /** A dumpDataDir() tarball to start from (tests clone a migrated template this way). */
  loadDataDir?: Blob;
}): Promise<EmbeddedPostgres> {
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const db = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: SOCKET_MAX_CONNECTIONS });
  await server.start();
  const url = `postgres://postgres@${server.getServerConn()}/postgres`;
  return {
    url,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}
