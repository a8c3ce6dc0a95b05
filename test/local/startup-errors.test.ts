// `npm start` with a setting that cannot work: it says which setting and why in a line or two (no
// driver stack trace, never a password) and exits 1 promptly, instead of hanging or crashing with an
// unhandled 'error' event. As an operator meets it: a child process, nothing but the environment.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startS3Server } from '../support/s3-server.ts';
import { closedPort } from '../support/tcp-proxy.ts';
import { ROOT } from './local-server-process.ts';

const SERVICE_VARIABLES = [
  'DATABASE_URL', 'REDIS_URL', 'TMS_ADMIN_TOKEN', 'UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN',
  'S3_BUCKET', 'SQS_QUEUE_URL', 'PORT', 'TMS_DATA_DIR', 'WEBHOOKS_QUEUE_URL',
];
const dirs: string[] = [];
const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** Runs `npm start` with `env` until it exits (or `ms` pass: then it is killed and reported as hung). */
async function startExpectingExit(env: Record<string, string>, ms = 20_000): Promise<{ code: number | null; output: string; ms: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-startup-'));
  dirs.push(dir);
  const childEnv: Record<string, string | undefined> = { ...process.env };
  for (const name of SERVICE_VARIABLES) delete childEnv[name];
  Object.assign(childEnv, { TMS_DATA_DIR: dir, PORT: '0', TMS_ADMIN_TOKEN: 'adm_startup_errors_test_token', LOG_REQUESTS: 'false' }, env);
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'functions/local.ts'], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output, ms: performance.now() - started };
}

/** The message an operator reads: no stack frames, no unhandled-event dump. */
function expectOneClearMessage(output: string, says: RegExp) {
  expect(output).toMatch(says);
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toMatch(/Unhandled 'error' event/);
}

async function listen(onConnection: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    socket.on('error', () => {});
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('npm start refuses settings that cannot work', () => {
  it('a DATABASE_URL where nothing listens: one line naming it, exit 1', async () => {
    const port = await closedPort();
    const run = await startExpectingExit({ DATABASE_URL: `postgres://tms:s3cret-pw@127.0.0.1:${port}/tms` });
    expect(run.code).toBe(1);
    expectOneClearMessage(run.output, new RegExp(`Cannot use the database at 127\\.0\\.0\\.1:${port}/tms \\(DATABASE_URL\\): connect ECONNREFUSED`));
    expect(run.output).not.toContain('s3cret-pw');
  }, 30_000);

  it('a DATABASE_URL naming a server that answers and hangs up (an HTTP port): exit 1, not a hang', async () => {
    const port = await listen((socket) => socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n')));
    const run = await startExpectingExit({ DATABASE_URL: `postgres://tms@127.0.0.1:${port}/tms`, DATABASE_CONNECT_TIMEOUT_SECONDS: '2' });
    expect(run.code).toBe(1);
    expectOneClearMessage(run.output, /Cannot use the database at .* \(DATABASE_URL\): the server at .* closed the connection/);
  }, 30_000);

  it.runIf(Boolean(process.env.DATABASE_URL))('a database that does not exist: its name, and how to create one', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = '/tms_startup_errors_no_such_database';
    const run = await startExpectingExit({ DATABASE_URL: url.toString() });
    expect(run.code).toBe(1);
    expectOneClearMessage(run.output, /database "tms_startup_errors_no_such_database" does not exist/);
  }, 30_000);

  it('malformed DATABASE_URL and REDIS_URL are refused by name before anything starts', async () => {
    for (const [env, says] of [
      [{ DATABASE_URL: 'localhost:5432/tms' }, /DATABASE_URL: must be a URL starting with postgres:\/\/ or postgresql:\/\//],
      // Neon's console adds channel_binding; Postgres refused it as a server setting, far from the URL.
      [{ DATABASE_URL: 'postgres://tms:s3cret-pw@127.0.0.1:5432/tms?sslmode=require&channel_binding=require' }, /DATABASE_URL: channel_binding is a libpq setting .* remove it/],
      [{ REDIS_URL: 'http://127.0.0.1:6379' }, /REDIS_URL: must be a URL starting with redis:\/\/ or rediss:\/\//],
      [{ REDIS_URL: '127.0.0.1:6379' }, /REDIS_URL: must be a URL starting with redis:\/\//],
    ] as const) {
      const run = await startExpectingExit(env);
      expect(run.code).toBe(1);
      expectOneClearMessage(run.output, says);
    }
  }, 60_000);

  it('REDIS_URL and UPSTASH_REDIS_REST_URL together are a conflict, not a silent choice', async () => {
    const run = await startExpectingExit({
      REDIS_URL: 'redis://127.0.0.1:6379',
      UPSTASH_REDIS_REST_URL: 'https://example.upstash.io',
      UPSTASH_REDIS_REST_TOKEN: 'token',
    });
    expect(run.code).toBe(1);
    expectOneClearMessage(run.output, /REDIS_URL and UPSTASH_REDIS_REST_URL are both set/);
  }, 30_000);

  it.each([
    [{ MT_PROVIDER: 'deepl' }, /MT_PROVIDER: deepl is not configured/],
    [{ DEEPL_API_KEY: 'k:fx', LIBRETRANSLATE_URL: 'http://127.0.0.1:5000' }, /MT_PROVIDER: several machine translation providers are configured \(deepl, libretranslate\)/],
  ])('machine translation settings that contradict each other (%o): one message, exit 1, before any database is made', async (env, says) => {
    const run = await startExpectingExit(env);
    expect(run.code).toBe(1);
    expectOneClearMessage(run.output, says);
    // It used to be a stack trace after the database had been created and migrated.
    expect(existsSync(join(dirs.at(-1)!, 'pgdata'))).toBe(false);
  }, 30_000);

  it('an S3_BUCKET that does not exist: named, with its endpoint, exit 1 before anything runs', async () => {
    const s3 = await startS3Server();
    try {
      const run = await startExpectingExit({
        S3_BUCKET: 'no-such-bucket',
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        S3_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
      }, 60_000);
      expect(run.code).toBe(1);
      expectOneClearMessage(run.output, new RegExp(`The S3 bucket "no-such-bucket" does not exist at ${s3.endpoint.replace(/\./g, '\\.')} \\(S3_BUCKET\\)`));
      expect(run.output).not.toMatch(/"msg":"tms listening"/);
    } finally {
      await s3.close();
    }
  }, 90_000);

  it('a PORT already in use: says so and exits 1', async () => {
    const port = await listen(() => {});
    const run = await startExpectingExit({ PORT: String(port) }, 60_000);
    expect(run.code).toBe(1);
    expectOneClearMessage(run.output, new RegExp(`Cannot listen on 127\\.0\\.0\\.1:${port}: the address is in use`));
  }, 90_000);
});
