// One fresh migrated database for a test file, reachable by URL from several independent pools: the
// Lambda entries (each makes its own Deps, one connection apiece, as on AWS) and the local app.
// Real Postgres when DATABASE_URL is set (a clone of the run's template); otherwise an embedded
// PGlite from the template tarball, served on a socket that accepts that many connections.
//
// PGlite has one backend for all its sockets: use it from one request at a time (await each), and
// keep background work off it (no debounced auto rebuilds, no in-process builds). Concurrency and
// locking belong to the real-Postgres run.
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { PGLITE_EXTENSIONS } from '../../core/db/embedded.ts';
import { createTestDatabase } from './test-database.ts';

export type SharedDatabase = { url: string; kind: 'embedded' | 'postgres'; close(): Promise<void> };

export async function startSharedDatabase(options: { maxConnections?: number } = {}): Promise<SharedDatabase> {
  const db = await createTestDatabase();
  if (db.kind === 'postgres') return { url: db.url, kind: 'postgres', close: () => db.drop() };
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS, loadDataDir: db.tarball });
  const server = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: options.maxConnections ?? 16 });
  await server.start();
  return {
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    kind: 'embedded',
    async close() {
      await server.stop();
      await pglite.close();
    },
  };
}
