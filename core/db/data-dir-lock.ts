// One process at a time on an embedded data directory. PGlite takes no lock of its own: a second
// process (another `npm start` on another PORT, `npm run migrate` beside a running server) opened
// the same files and wrote its own WAL over the first one's. So the directory gets a lock file
// beside it naming its owner, taken with an exclusive create, as Postgres's postmaster.pid does for a
// real server.
import { open, readFile, unlink } from 'node:fs/promises';
import { ConfigError } from '../config.ts';

export type DataDirLock = { release(): Promise<void> };

/** Takes `<dataDir>.lock`, or refuses with a ConfigError naming the process that holds it. */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const path = `${dataDir}.lock`;
  const mine = `${process.pid}\n${(await processIdentity(process.pid)) ?? ''}\n`;
  // Two tries: the second after removing a lock whose owner is gone (killed, or a machine or
  // container that went down with it).
  for (let attempt = 0; ; attempt++) {
    try {
      const file = await open(path, 'wx', 0o600);
      try {
        await file.writeFile(mine);
      } finally {
        await file.close();
      }
      return {
        async release() {
          // Only our own: a lock someone removed by hand and another process took since is theirs.
          if ((await readFile(path, 'utf8').catch(() => undefined)) === mine) await unlink(path).catch(() => {});
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    const owner = await lockOwner(path);
    if (owner !== undefined) {
      throw new ConfigError(
        `The embedded database in ${dataDir} is in use by process ${owner} (another npm start or npm run migrate on the same ` +
          `TMS_DATA_DIR).\n  Stop that process first. If no such process is running, remove ${path} and start again.`,
      );
    }
    await unlink(path).catch(() => {});
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
