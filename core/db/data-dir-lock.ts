// One process at a time on an embedded data directory. PGlite takes no lock of its own: a second
// process (another `npm start` on another PORT, `npm run migrate` beside a running server) opened
// the same files and wrote its own WAL over the first one's. So the directory gets a lock file
// beside it naming its owner, taken with an exclusive create, as Postgres's postmaster.pid does for a
// real server.
import { randomBytes } from 'node:crypto';
import { link, open, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { ConfigError } from '../config.ts';

export type DataDirLock = { release(): Promise<void> };

/** Takes `<dataDir>.lock`, or refuses with a ConfigError naming the process that holds it. */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const path = `${dataDir}.lock`;
  const mine = `${process.pid}\n${(await processIdentity(process.pid)) ?? ''}\n`;
  if (await create(path, mine)) return held(path, mine);
  const owner = await lockOwner(path);
  if (owner !== undefined) throw inUse(dataDir, path, owner);
  // The owner is gone (killed, or a machine or container that went down with it): the lock is
  // taken over, under a takeover file. Two processes starting together over one stale lock both
  // found it stale, and the second removed the lock the first had just taken: both opened the data
  // dir. Under the takeover the lock is read again, so one taken meanwhile is live and refused.
  return underTakeover(path, async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const now = await lockOwner(path);
      if (now !== undefined) throw inUse(dataDir, path, now);
      await unlink(path).catch(() => {});
      if (await create(path, mine)) return held(path, mine);
    }
    throw new ConfigError(`${path} keeps coming back: another process is starting on ${dataDir}; start again once it has`);
  });
}

/**
 * Creates the lock file exclusively, with its content: written beside it and hard-linked into place,
 * so it never exists empty (an empty lock reads as no owner, and a process starting at that moment
 * took it over). False when one exists. Where the file system has no hard links, an exclusive
 * create and a write, as before.
 */
async function create(path: string, mine: string): Promise<boolean> {
  const written = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(written, mine, { mode: 0o600 });
    await link(written, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EXDEV') throw error;
  } finally {
    await unlink(written).catch(() => {});
  }
  let file;
  try {
    file = await open(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await file.writeFile(mine);
  } finally {
    await file.close();
  }
  return true;
}

const held = (path: string, mine: string): DataDirLock => ({
  async release() {
    // Only our own: a lock someone removed by hand and another process took since is theirs.
    if ((await readFile(path, 'utf8').catch(() => undefined)) === mine) await unlink(path).catch(() => {});
  },
});

const inUse = (dataDir: string, path: string, owner: number) =>
  new ConfigError(
    `The embedded database in ${dataDir} is in use by process ${owner} (another npm start or npm run migrate on the same ` +
      `TMS_DATA_DIR).\n  Stop that process first. If no such process is running, remove ${path} and start again.`,
  );

/** A takeover file older than this was left by a process killed while taking over: removed. */
const TAKEOVER_STALE_MS = 10_000;

/** Runs `take` holding `<lock>.takeover` (created exclusively), waiting for another holder. */
async function underTakeover<T>(path: string, take: () => Promise<T>): Promise<T> {
  const takeover = `${path}.takeover`;
  for (;;) {
    try {
      await (await open(takeover, 'wx', 0o600)).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const age = await stat(takeover).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > TAKEOVER_STALE_MS) await unlink(takeover).catch(() => {});
    else await new Promise((resolve) => setTimeout(resolve, 25));
  }
  try {
    return await take();
  } finally {
    await unlink(takeover).catch(() => {});
  }
}

/** The pid of the live process that holds the lock, or undefined when the lock is stale. */
async function lockOwner(path: string): Promise<number | undefined> {
  const [pidLine = '', recorded = ''] = (await readFile(path, 'utf8').catch(() => '')).split('\n');
  const pid = Number.parseInt(pidLine, 10);
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  // A container restarts its processes under the same small pids: a lock left by our own pid, or by
  // our parent's (npm's), is a previous life's, as Postgres reasons about postmaster.pid.
  if (pid === process.pid || pid === process.ppid || !isAlive(pid)) return undefined;
  // Where the kernel tells when a process started, a live pid that started at another time (or in
  // another boot) is a newer process that reuses the number.
  const now = await processIdentity(pid);
  if (recorded && now && recorded !== now) return undefined;
  return pid;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** "<boot id>:<start time in clock ticks>" on Linux; undefined where /proc cannot tell. */
async function processIdentity(pid: number): Promise<string | undefined> {
  try {
    const [boot, stat] = await Promise.all([
      readFile('/proc/sys/kernel/random/boot_id', 'utf8'),
      readFile(`/proc/${pid}/stat`, 'utf8'),
    ]);
    // Fields after the command name, which sits in parentheses and may hold spaces: state is field
    // 3, start time field 22.
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return startTime ? `${boot.trim()}:${startTime}` : undefined;
  } catch {
    return undefined;
  }
}
