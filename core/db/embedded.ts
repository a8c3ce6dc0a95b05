// The embedded default: PGlite (Postgres compiled to WebAssembly) served over the Postgres wire
// protocol by pglite-socket, so that postgres.js stays the only SQL client in every mode. Both run
// on a thread of their own (core/db/embedded-worker.mjs).
//
// Why a thread: PGlite's WebAssembly runs on the thread that calls it. On the service's own thread,
// every statement (a 2-second import's included) held up every other request, cached reads that
// ask no database among them, and a write's database work and its HTTP work could never use two
// cores. On its own thread the database works while the service parses, answers and serializes.
// docs/decisions.md, "The embedded database on its own thread".
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
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
  const socketDir = options.tcp ? undefined : await mkdtemp(join(tmpdir(), 'tms-pg-'));
  const path = socketDir ? join(socketDir, '.s.PGSQL.5432') : undefined;
  const cleanUp = async () => {
    await lock?.release();
    if (socketDir) await rm(socketDir, { recursive: true, force: true });
  };
  // The dump's bytes move to the thread (transferred, not copied again).
  const dump = options.loadDataDir ? new Uint8Array(await options.loadDataDir.arrayBuffer()) : undefined;
  const worker = new Worker(new URL('./embedded-worker.mjs', import.meta.url), {
    workerData: { dataDir: options.dataDir, loadDataDir: dump, path, maxConnections: SOCKET_MAX_CONNECTIONS },
    ...(dump ? { transferList: [dump.buffer as ArrayBuffer] } : {}),
    // Plain JavaScript: none of the parent's loaders (tsx) is needed, and none is loaded again.
    execArgv: [],
  });
  let ready: { conn: string | undefined };
  try {
    // The first message says the socket listens; an error (a data dir PGlite cannot open) or an
    // exit before it fails the start with it.
    ready = await Promise.race([
      once(worker, 'message').then(([message]) => message as { conn: string | undefined }),
      once(worker, 'exit').then(([code]) => Promise.reject(new Error(`the embedded database stopped while starting (exit code ${String(code)})`))),
    ]);
  } catch (error) {
    await worker.terminate();
    await cleanUp();
    throw error;
  }
  // Once started, the database's thread failing is the process's failure, as when PGlite ran on the
  // service's thread: nothing in the process can bring it back.
  let closing = false;
  worker.on('error', (error) => {
    if (!closing) setImmediate(() => { throw error; });
  });
  const url = path ? 'postgres://postgres@localhost/postgres' : `postgres://postgres@${ready.conn}/postgres`;
  return {
    url,
    path,
    async close() {
      closing = true;
      const exited = once(worker, 'exit');
      worker.postMessage('close');
      await exited;
      await cleanUp();
    },
  };
}
