// The service under test runs as a child process, `node --import tsx functions/local.ts`, exactly as
// `npm start` runs it, so that the load generator and the server never share an event loop. Its
// JSON log lines are parsed: the listening URL at start, and the builder's "cache built" lines.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export type LogLine = { msg?: string; level?: string; [field: string]: unknown };

export type ServiceProcess = {
  url: string;
  pid: number;
  /** Resolves with the first log line (from now on) that satisfies `match`. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs: number): Promise<LogLine>;
  /** The last lines the child wrote (stdout and stderr), for error messages. */
  recentOutput(): string;
  stop(): Promise<void>;
};

export type ServiceOptions = {
  dataDir: string;
  adminToken: string;
  /** Real Postgres; unset means embedded PGlite inside the child. */
  databaseUrl?: string;
  /** Directory for --cpu-prof output; unset means no profiling. */
  profileDir?: string;
  startTimeoutMs?: number;
  /** Extra settings (the emulated machine translation provider). */
  env?: Record<string, string>;
};

// The service's own settings come from us alone: a stray S3_BUCKET or SQS_QUEUE_URL in the caller's
// shell must not send the builder to AWS. REDIS_URL and DATABASE_POOL_MAX are passed on on purpose.
const DROPPED_ENV = [
  'DATABASE_URL',
  'UPSTASH_REDIS_REST_URL',
  'UPSTASH_REDIS_REST_TOKEN',
  'S3_BUCKET',
  'S3_ENDPOINT',
  'SQS_QUEUE_URL',
  'SQS_ENDPOINT',
  'AUTO_REBUILD_DEBOUNCE_MS',
  'API_KEY_CACHE_SECONDS',
];

export async function startService(options: ServiceOptions): Promise<ServiceProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of DROPPED_ENV) delete env[name];
  Object.assign(env, {
    PORT: '0',
    HOST: '127.0.0.1',
    TMS_DATA_DIR: options.dataDir,
    TMS_ADMIN_TOKEN: options.adminToken,
    LOG_REQUESTS: 'false',
    NODE_ENV: 'production',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  });
  const nodeArgs = ['--import', 'tsx'];
  if (options.profileDir) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${options.profileDir}`);
  const child = spawn(process.execPath, [...nodeArgs, 'functions/local.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  const recent: string[] = [];
  const waiters = new Set<{ match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }>();
  const remember = (text: string) => {
    recent.push(text);
    if (recent.length > 60) recent.shift();
  };
  createInterface({ input: child.stdout! }).on('line', (text) => {
    remember(text);
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      return;
    }
    for (const waiter of waiters) {
      if (waiter.match(line)) {
        waiters.delete(waiter);
        waiter.resolve(line);
      }
    }
  });
  createInterface({ input: child.stderr! }).on('line', remember);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let running = true;
  void exited.then(() => (running = false));

  const waitForLog = (match: (line: LogLine) => boolean, timeoutMs: number) =>
    new Promise<LogLine>((resolve, reject) => {
      const waiter = {
        match,
        resolve: (line: LogLine) => {
          clearTimeout(timer);
          resolve(line);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`service: no matching log line within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(waiter);
      void exited.then((code) => {
        if (!waiters.delete(waiter)) return;
        clearTimeout(timer);
        reject(new Error(`service exited (code ${code}) while waiting:\n${recent.join('\n')}`));
      });
    });

  const stop = async () => {
    if (!running) return;
    child.kill('SIGTERM');
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(resolve, 15_000, 'timeout').unref());
    if ((await Promise.race([exited, timeout])) === 'timeout') {
      child.kill('SIGKILL');
      await exited;
    }
  };

  try {
    const listening = await waitForLog((line) => line.msg === 'tms listening', options.startTimeoutMs ?? 60_000);
    return {
      url: String(listening.url),
      pid: child.pid!,
      waitForLog,
      recentOutput: () => recent.join('\n'),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Resident set size now and its peak (VmHWM), in bytes, from /proc. Null where /proc is missing. */
export async function readMemory(pid: number): Promise<{ rss: number; peak: number } | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** Resets the peak RSS (VmHWM) to the current RSS (Linux >= 4.0, needs permission). */
export async function resetPeakMemory(pid: number): Promise<boolean> {
  try {
    await writeFile(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
