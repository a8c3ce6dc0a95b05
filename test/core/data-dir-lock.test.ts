// The embedded data directory's lock (core/db/data-dir-lock.ts): held by a real second process,
// refused while it lives, taken over once it is gone or when its pid now names another process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/config.ts';
import { lockDataDir } from '../../core/db/data-dir-lock.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-lock-'));
  dirs.push(dir);
  return join(dir, 'pgdata');
}

/** Another process that takes the lock and holds it until killed. */
async function holder(dir: string): Promise<ChildProcess> {
  const code = `import { lockDataDir } from './core/db/data-dir-lock.ts'; await lockDataDir(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => String(d).includes('locked') && resolve());
    child.once('exit', (c) => reject(new Error(`holder exited ${c}`)));
  });
  return child;
}

const exit = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

describe('lockDataDir', () => {
  it('refuses while another live process holds it, naming that process; takes it once the process is gone', async () => {
    const dir = await dataDir();
    const other = await holder(dir);
    const refused = await lockDataDir(dir).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toBe(
      `The embedded database in ${dir} is in use by process ${other.pid} (another npm start or npm run migrate on the same TMS_DATA_DIR).\n` +
        `  Stop that process first. If no such process is running, remove ${dir}.lock and start again.`,
    );
    other.kill('SIGKILL');
    await exit(other);
    // The dead holder's file is still there; it is taken over.
    expect(await readFile(`${dir}.lock`, 'utf8')).toMatch(new RegExp(`^${other.pid}\\n`));
    const lock = await lockDataDir(dir);
    expect(await readFile(`${dir}.lock`, 'utf8')).toMatch(new RegExp(`^${process.pid}\\n`));
    await lock.release();
    await expect(readFile(`${dir}.lock`, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  }, 30_000);

  it('takes a lock whose pid now names a process that started later (pid reuse), and one in our own pid', async () => {
    const dir = await dataDir();
    const other = await holder(dir);
    const [pid, identity] = (await readFile(`${dir}.lock`, 'utf8')).split('\n');
    expect(Number(pid)).toBe(other.pid);
    if (!identity) return console.log('no /proc here: pid reuse is told by the pid alone');
    // The same live pid, recorded with another start time: not this process's lock.
    await writeFile(`${dir}.lock`, `${other.pid}\n${identity.replace(/:(\d+)$/, (_, t) => `:${Number(t) - 1}`)}\n`);
    const lock = await lockDataDir(dir);
    await lock.release();
    // A lock in our own pid is a previous life's (a container restarted under the same pid).
    await writeFile(`${dir}.lock`, `${process.pid}\n\n`);
    await (await lockDataDir(dir)).release();
  }, 30_000);

  it('refuses a live pid recorded without a start time; releases only its own lock', async () => {
    const dir = await dataDir();
    const other = await holder(dir);
    other.kill('SIGKILL');
    await exit(other);
    const again = await holder(dir);
    await writeFile(`${dir}.lock`, `${again.pid}\n`);
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(ConfigError);
    again.kill('SIGKILL');
    await exit(again);
    const lock = await lockDataDir(dir);
    // Someone removed it by hand and another process took it: release leaves theirs alone.
    await writeFile(`${dir}.lock`, '1\n\n');
    await lock.release();
    expect(await readFile(`${dir}.lock`, 'utf8')).toBe('1\n\n');
  }, 30_000);
});

describe('processes starting together over a stale lock', () => {
  // Each read the dead owner and removed "the stale lock": the second removal took the lock the
  // first had just made, and both opened the data dir (two PGlite writers on one WAL). The takeover
  // now happens under a file of its own, created exclusively.
  it('never both get it', async () => {
    const dead = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.on('close', () => resolve(out));
    });
    // Each says what it got; one that got the lock holds it (alive) until all three have said, so a
    // contender that started late on a loaded machine meets a live owner, as it would in life.
    const contender = (dir: string, at: number) => {
      const code =
        `import { lockDataDir } from './core/db/data-dir-lock.ts'; while (Date.now() < ${at}) {} ` +
        `lockDataDir(${JSON.stringify(dir)}).then(() => { console.log('got'); setInterval(() => {}, 1000); }, () => { console.log('refused'); process.exit(0); });`;
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
      children.push(child);
      const said = new Promise<string>((resolve) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          if (out.includes('\n')) resolve(out.trim());
        });
        child.on('close', () => resolve(out.trim()));
      });
      return { child, said };
    };
    for (let round = 0; round < 6; round++) {
      const dir = await dataDir();
      await writeFile(`${dir}.lock`, `${dead}\n\n`);
      const at = Date.now() + 2000;
      const contenders = [contender(dir, at), contender(dir, at), contender(dir, at)];
      const results = await Promise.all(contenders.map((c) => c.said));
      for (const { child } of contenders) child.kill('SIGKILL');
      expect(results.filter((r) => r === 'got'), `round ${round}: ${results.join(', ')}`).toHaveLength(1);
      expect(results.filter((r) => r === 'refused')).toHaveLength(2);
    }
  }, 120_000);
});
