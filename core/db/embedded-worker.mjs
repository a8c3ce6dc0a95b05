// The embedded database's own thread (core/db/embedded.ts starts it): PGlite and the pglite-socket
// server that serves it over the Postgres wire protocol. Plain JavaScript: a worker thread loads its
// file with Node's own loader, outside tsx or a test runner's transform.
// The extensions are core/db/embedded.ts's PGLITE_EXTENSIONS, which the tests' templates open with.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { dataDir, loadDataDir, path, maxConnections } = workerData;
const db = await PGlite.create({
  extensions: { btree_gin, pg_trgm },
  ...(dataDir ? { dataDir } : {}),
  ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}),
});
const server = new PGLiteSocketServer({ db, ...(path ? { path } : { host: '127.0.0.1', port: 0 }), maxConnections });
try {
  await server.start();
} catch (error) {
  await db.close();
  throw error;
}
parentPort.on('message', async (message) => {
  if (message !== 'close') return;
  await server.stop();
  await db.close();
  parentPort.close();
});
parentPort.postMessage({ conn: path ? undefined : server.getServerConn() });
