// The embedded database's disk, watched. PGlite does not survive a full disk: when Postgres cannot
// create its next WAL segment (ENOSPC), the single backend is left mid-error and loops in its error
// reporting, on the service's own thread, for good: no request is answered again, /health neither,
// and SIGTERM is never handled (seen on a 60 MB tmpfs: one import, then a core at 100% until
// SIGKILL). The data is intact after a restart with space freed; the process is not.
//
// So the service stops writing before the disk is full: below TMS_DATA_DIR_MIN_FREE_MB of free space
// under the data dir, it turns the database session read-only (default_transaction_read_only), and
// every write is refused by Postgres itself, cleanly, before it writes any WAL (SQLSTATE 25006, an
// error answer with a detail saying so: core/db/errors.ts). Reads go on. Once there is a quarter more
// than the floor again, writes are accepted again. The embedded pool has exactly one connection
// (embedded.ts), so one SET covers every statement the service sends; PGlite's one backend keeps it
// across that connection's reconnects, and the guard sets it again at every look while the disk is
// low anyway. A write already running when the floor is crossed runs to its end: the floor must hold
// the largest single write (a 10 MiB import of new source-language texts writes about 500 MB of WAL
// and index pages; docs/operations.md).
import { statfs } from 'node:fs/promises';
import type { Logger } from '../log.ts';
import type { Sql } from './client.ts';

export type DiskGuard = {
  /** True while writes are refused for want of disk space. */
  readOnly(): boolean;
  /** The free bytes the last look found (undefined before the first, or when statfs failed). */
  freeBytes(): number | undefined;
  /** Looks at the free space now and turns writes off or on (the timer calls it every interval). */
  check(): Promise<void>;
  close(): Promise<void>;
};

export type DiskGuardOptions = {
  sql: Sql;
  /** The directory whose filesystem holds the database. */
  dir: string;
  /** Below this many free bytes, writes are refused; 0 turns the guard off. */
  minFreeBytes: number;
  log: Logger;
  intervalMs?: number;
  /** Bytes available to this user on `dir`'s filesystem (tests replace it). */
  freeBytes?: (dir: string) => Promise<number>;
};

/** Writes come back once there is this much more than the floor, so that a disk at the line does not flap. */
const RESUME_FACTOR = 1.25;
const MB = 1024 * 1024;

async function statfsFree(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

export function guardDiskSpace(options: DiskGuardOptions): DiskGuard {
  const { sql, dir, minFreeBytes, log } = options;
  const freeBytes = options.freeBytes ?? statfsFree;
  let readOnly = false;
  let lastFree: number | undefined;
  let running: Promise<void> | undefined;

  const look = async () => {
    let free: number;
    try {
      free = await freeBytes(dir);
    } catch (error) {
      lastFree = undefined;
      log.warn('disk space unknown', { dir, error: String(error) });
      return;
    }
    lastFree = free;
    const figures = { dir, free_mb: Math.floor(free / MB), min_free_mb: Math.round(minFreeBytes / MB) };
    if (free < minFreeBytes) {
      // Set at every look while low: cheap, and it holds even if the session was ever replaced.
      await sql`set default_transaction_read_only = on`;
      if (!readOnly) log.error('disk nearly full: writes refused until space is freed', figures);
      readOnly = true;
    } else if (readOnly && free >= minFreeBytes * RESUME_FACTOR) {
      await sql`set default_transaction_read_only = off`;
      readOnly = false;
      log.info('disk space back: writes accepted', figures);
    }
  };
  // One look at a time: a look waits behind a long transaction (the pool's one connection), and
  // the timer must not pile more up behind it.
  const check = () => (running ??= look().catch((error) => log.warn('disk guard failed', { error: String(error) })).finally(() => (running = undefined)));

  const timer = minFreeBytes > 0 ? setInterval(() => void check(), options.intervalMs ?? 1000) : undefined;
  timer?.unref();
  return {
    readOnly: () => readOnly,
    freeBytes: () => lastFree,
    check: () => (minFreeBytes > 0 ? check() : Promise.resolve()),
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}
