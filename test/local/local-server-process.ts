// Starts `npm start` (functions/local.ts) as a newcomer runs it: a real child process on embedded
// defaults, with nothing configured but the environment given here. Resolves once it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

/** Variables that would point the server at real services: never inherited from the test's shell. */
const SERVICE_VARIABLES = [
  'DATABASE_URL', 'REDIS_URL', 'TMS_ADMIN_TOKEN', 'UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN',
  'S3_BUCKET', 'SQS_QUEUE_URL', 'PORT', 'TMS_DATA_DIR',
];

export type LocalServer = {
  url: string;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Waits until the output matches, or throws with the output after `ms` (10 s by default). */
  waitForOutput(pattern: RegExp, ms?: number): Promise<void>;
  stop(): Promise<void>;
  /** Sends a signal (SIGKILL for a crash, SIGINT for Ctrl-C). */
  kill(signal: NodeJS.Signals): void;
  /** Resolves with the exit code (null when a signal ended it) once the process has exited. */
  exited(): Promise<number | null>;
};

const running = new Set<ChildProcess>();

/** Kills what is still running (for afterAll, when a test failed before stop()). */
export function killLocalServers(): void {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  running.clear();
}

export async function startLocalServer(env: Record<string, string>): Promise<LocalServer> {
  const childEnv: Record<string, string | undefined> = { ...process.env };
  for (const name of SERVICE_VARIABLES) delete childEnv[name];
  // The free-space floor of the embedded database (512 MB) is the product's; the test machine's free
  // space must not decide unrelated tests. test/local/disk-guard.test.ts sets its own.
  childEnv.TMS_DATA_DIR_MIN_FREE_MB = '64';
  Object.assign(childEnv, env);
  const child = spawn(process.execPath, ['--import', 'tsx', 'functions/local.ts'], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let out = '';
  const listeners = new Set<() => void>();
  const append = (d: Buffer) => {
    out += d;
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const waitForOutput = (pattern: RegExp, ms = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        listeners.delete(check);
        clearTimeout(timer);
        child.off('exit', onExit);
        if (error) reject(error);
        else resolve();
      };
      const check = () => pattern.test(out) && done();
      const onExit = (code: number | null) => done(new Error(`exited ${code} before printing ${pattern}:\n${out}`));
      const timer = setTimeout(() => done(new Error(`no ${pattern} within ${ms} ms:\n${out}`)), ms);
      listeners.add(check);
      child.once('exit', onExit);
      check();
    });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // A first start applies every migration to a new embedded database: 8 s on an idle 2-core
  // machine, past 30 s on a loaded one (CI's PostgreSQL run, 2026-12-01: nothing printed in 30 s).
  // The test's own timeout is the limit that matters.
  await waitForOutput(/"msg":"tms listening"/, 90_000);
  const url = /"msg":"tms listening","url":"([^"]+)"/.exec(out)![1]!;
  return {
    url,
    output: () => out,
    waitForOutput,
    kill: (signal) => void child.kill(signal),
    exited: () => exited,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A TCP port free on 127.0.0.1 at the time of asking (for commands that must name the port). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
