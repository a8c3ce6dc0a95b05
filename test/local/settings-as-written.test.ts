// Settings as a self-hoster writes them (an .env template's `NAME=`, MinIO's printed endpoint, an
// origin copied from the address bar, libpq's sslmode=allow): taken as meant, or refused at start.
// A review of 2026-11-29 found each accepted and then wrong.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.ts';
import { startS3Server } from '../support/s3-server.ts';
import { freePort, killLocalServers, ROOT, startLocalServer } from './local-server-process.ts';

const dirs: string[] = [];
afterAll(async () => {
  killLocalServers();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-review-'));
  dirs.push(dir);
  return dir;
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(2000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

const externalAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

describe('HOST', () => {
  it.skipIf(!externalAddress)(
    'an empty HOST= (as left in an .env file) is the 127.0.0.1 default: not reachable on other interfaces',
    async () => {
      const port = await freePort();
      const server = await startLocalServer({ TMS_DATA_DIR: await dataDir(), PORT: String(port), HOST: '', TMS_ADMIN_TOKEN: 'adm_review_host_token' });
      try {
        // Every other variable treats '' as unset (the default); HOST='' must too: loopback only.
        expect(await accepts(externalAddress!, port)).toBe(false);
      } finally {
        await server.stop();
      }
    },
    60_000,
  );

  it(
    'HOST=::1 (IPv6) prints its url and banner with the address bracketed (http://[::1]:PORT)',
    async () => {
      const server = await startLocalServer({ TMS_DATA_DIR: await dataDir(), PORT: '0', HOST: '::1', TMS_ADMIN_TOKEN: 'adm_review_host_token' });
      try {
        expect(URL.canParse(server.url)).toBe(true);
        expect(server.output()).not.toMatch(/running at http:\/\/::1:/);
      } finally {
        await server.stop();
      }
    },
    60_000,
  );
});

describe('TMS_DATA_DIR', () => {
  it(
    'an empty TMS_DATA_DIR= (as left in an .env file) is ./.tms, not the working directory',
    async () => {
      const cwd = await dataDir();
      const env: Record<string, string | undefined> = { ...process.env };
      for (const name of ['DATABASE_URL', 'REDIS_URL', 'UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN', 'S3_BUCKET', 'SQS_QUEUE_URL', 'WEBHOOKS_QUEUE_URL']) delete env[name];
      Object.assign(env, { TMS_DATA_DIR: '', PORT: '0', TMS_ADMIN_TOKEN: 'adm_review_datadir_token', TMS_DATA_DIR_MIN_FREE_MB: '64' });
      const child = spawn(
        process.execPath,
        ['--import', pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href, join(ROOT, 'functions/local.ts')],
        { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`not listening within 40 s:\n${out}`)), 40_000);
          child.stdout.on('data', () => /tms listening/.test(out) && (clearTimeout(timer), resolve()));
          child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`exited ${code}:\n${out}`))));
        });
        expect(existsSync(join(cwd, 'pgdata'))).toBe(false);
        expect(existsSync(join(cwd, '.tms', 'pgdata'))).toBe(true);
      } finally {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    },
    60_000,
  );
});

describe('S3_ENDPOINT', () => {
  it(
    'S3_ENDPOINT without its scheme (127.0.0.1:9000, as MinIO prints it) is refused at start, naming the setting',
    async () => {
      const port = await freePort();
      let server;
      try {
        server = await startLocalServer({
          TMS_DATA_DIR: await dataDir(), PORT: '0', TMS_ADMIN_TOKEN: 'adm_review_s3_token',
          S3_BUCKET: 'tms', S3_ENDPOINT: `127.0.0.1:${port}`, S3_FORCE_PATH_STYLE: 'true',
          AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER',
        });
      } catch (error) {
        // Refused at start (what REDIS_URL and DATABASE_URL do for a URL without their scheme): fine.
        expect(String(error)).toMatch(/S3_ENDPOINT/);
        return;
      }
      const output = server.output();
      await server.stop();
      expect.fail(`started on an S3_ENDPOINT without a scheme:\n${output}`);
    },
    60_000,
  );
});

describe('S3 credentials', () => {
  it(
    'a wrong S3 access key (InvalidAccessKeyId) stops the start (exit 1) with the reason, not a warning and a server that fails every build',
    async () => {
      const s3 = await startS3Server();
      try {
        let server;
        try {
          server = await startLocalServer({
            TMS_DATA_DIR: await dataDir(), PORT: '0', TMS_ADMIN_TOKEN: 'adm_review_s3_token',
            S3_BUCKET: s3.bucket, S3_ENDPOINT: s3.endpoint, S3_FORCE_PATH_STYLE: 'true', S3_REGION: 'us-east-1',
            AWS_ACCESS_KEY_ID: 'AKIA-WRONG-KEY', AWS_SECRET_ACCESS_KEY: 'S3RVER',
          });
        } catch (error) {
          // Refused at start with the reason (as a missing bucket is): fine.
          expect(String(error)).toMatch(/S3|AWS_SECRET_ACCESS_KEY|credentials|signature/i);
          return;
        }
        const output = server.output();
        const health = await fetch(`${server.url}/health`);
        await server.stop();
        expect.fail(`started with credentials S3 refuses (/health ${health.status}):\n${output}`);
      } finally {
        await s3.close();
      }
    },
    90_000,
  );
});

describe('empty numeric settings', () => {
  it('an empty PORT= / AUTH_FAILURES_PER_MINUTE= / TMS_DATA_DIR_MIN_FREE_MB= / DATABASE_STATEMENT_TIMEOUT_MS= takes the default, not 0 (a random port, limits turned off)', () => {
    // An .env line left empty (`PORT=`) means "the default" for every string setting (optionalString);
    // the numbers read '' as 0, which for these four means something else entirely.
    const config = loadConfig({ PORT: '', AUTH_FAILURES_PER_MINUTE: '', TMS_DATA_DIR_MIN_FREE_MB: '', DATABASE_STATEMENT_TIMEOUT_MS: '' });
    expect({
      PORT: config.PORT,
      AUTH_FAILURES_PER_MINUTE: config.AUTH_FAILURES_PER_MINUTE,
      TMS_DATA_DIR_MIN_FREE_MB: config.TMS_DATA_DIR_MIN_FREE_MB,
      DATABASE_STATEMENT_TIMEOUT_MS: config.DATABASE_STATEMENT_TIMEOUT_MS,
    }).toEqual({ PORT: 3000, AUTH_FAILURES_PER_MINUTE: 60, TMS_DATA_DIR_MIN_FREE_MB: 512, DATABASE_STATEMENT_TIMEOUT_MS: 15000 });
  });

  it.each([
    ['REDIS_KEY_PREFIX', 'tms:'],
    ['UPGRADE_URL', '/docs#/Admin'],
    ['OPENAI_BASE_URL', 'https://api.openai.com/v1'],
    ['MT_PROVIDER', undefined],
  ])('an empty %s= takes its default (it refused the start)', (name, expected) => {
    expect((loadConfig({ [name]: '' }) as Record<string, unknown>)[name]).toBe(expected);
  });
});

describe('service URLs', () => {
  it.each([
    ['LIBRETRANSLATE_URL', 'localhost:5000'],
    ['DEEPL_API_URL', 'api.deepl.com'],
    ['OPENAI_BASE_URL', 'localhost:11434/v1'],
    ['UPSTASH_REDIS_REST_URL', 'my-db.upstash.io'],
    ['SQS_ENDPOINT', '127.0.0.1:9324'],
    ['CLOUDFRONT_ENDPOINT', 'ftp://example.com'],
  ])('%s=%s without its scheme is refused at start, naming it (every call failed far from the setting)', (name, value) => {
    expect(() => loadConfig({ [name]: value, ...(name === 'UPSTASH_REDIS_REST_URL' ? { UPSTASH_REDIS_REST_TOKEN: 't' } : {}) })).toThrow(new RegExp(`${name}: must be a URL`));
  });
});

describe('CORS_ORIGINS', () => {
  it(
    'CORS_ORIGINS=https://app.example.com/ (trailing slash, as copied from the address bar) matches the browser\'s Origin',
    async () => {
      // A delivery key's allowed_origins take the same value and canonicalize it (canonicalOrigin); the server's list does not.
      const server = await startLocalServer({
        TMS_DATA_DIR: await dataDir(), PORT: '0', TMS_ADMIN_TOKEN: 'adm_review_cors_token', LOG_REQUESTS: 'false',
        CORS_ORIGINS: 'https://app.example.com/, https://Admin.Example.com:443',
      });
      try {
        for (const origin of ['https://app.example.com', 'https://admin.example.com']) {
          const preflight = await fetch(`${server.url}/v1/keys`, {
            method: 'OPTIONS',
            headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-api-key, content-type' },
          });
          expect({ origin, allowed: preflight.headers.get('access-control-allow-origin') }).toEqual({ origin, allowed: origin });
        }
      } finally {
        await server.stop();
      }
    },
    60_000,
  );
});

describe('DATABASE_URL sslmode', () => {
  it('DATABASE_URL with sslmode=allow reaches a server without TLS, as psql does', async () => {
    const { default: postgres } = await import('postgres');
    const admin = postgres('postgres://postgres@127.0.0.1:5432/postgres', { max: 1, onnotice: () => {} });
    const name = `tms_review_${Math.random().toString(16).slice(2, 10)}`;
    await admin.unsafe(`create database ${name}`);
    try {
      for (const mode of ['allow']) {
        const server = await startLocalServer({ TMS_DATA_DIR: await dataDir(), PORT: '0', TMS_ADMIN_TOKEN: 'adm_review_ssl_token', DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${name}?sslmode=${mode}` });
        expect((await fetch(`${server.url}/health`)).status).toBe(200);
        await server.stop();
      }
    } finally {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 90_000);
});
