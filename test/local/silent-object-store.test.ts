// npm start with S3_BUCKET, on a store that stops answering without closing its connections (an
// overloaded MinIO, a network black hole). The S3 client waited for ever: every cached read of the
// project joined one pointer check that never settled, and a build kept its claim renewed for good,
// even after the store answered again. Calls now have deadlines (core/adapters/object-store-s3.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server } from '../support/s3-server.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { killLocalServers, startLocalServer, type LocalServer } from './local-server-process.ts';

const ADMIN_TOKEN = 'adm_silent_object_store_0123456789';

/** The status of a GET, or 'no answer' when none came within `ms`. */
async function statusWithin(url: string, headers: Record<string, string>, ms: number): Promise<number | 'no answer'> {
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(ms) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 'no answer';
  }
}

describe('npm start on an S3 store that goes silent', () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let proxy: TcpProxy;
  let server: LocalServer;
  let dir: string;
  let h: Record<string, string>;
  const status = async () => (await (await fetch(`${server.url}/v1/cache/status`, { headers: h })).json()) as { ready: boolean; pending: boolean; last_rebuilt_at: string | null };

  beforeAll(async () => {
    s3 = await startS3Server();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) });
    dir = await mkdtemp(join(tmpdir(), 'tms-silent-s3-'));
    server = await startLocalServer({
      TMS_DATA_DIR: dir,
      PORT: '0',
      TMS_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_REQUESTS: 'false',
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: `http://127.0.0.1:${proxy.port}`,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      REBUILD_POLL_MS: '200',
    });
    const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
    const account = await (await fetch(`${server.url}/admin/v1/accounts`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Acme', plan: 'business' }) })).json();
    const project = await (await fetch(`${server.url}/admin/v1/accounts/${account.id}/projects`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'App' }) })).json();
    h = { 'X-API-Key': project.api_key.key, 'Content-Type': 'application/json' };
    expect((await fetch(`${server.url}/v1/languages`, { method: 'POST', headers: h, body: '{"code":"de"}' })).status).toBe(201);
    expect((await fetch(`${server.url}/v1/import/de?status=approved`, { method: 'POST', headers: h, body: '{"home.title":"Willkommen"}' })).status).toBe(200);
    expect((await fetch(`${server.url}/v1/cache/rebuild`, { method: 'POST', headers: h })).status).toBe(202);
    for (let i = 0; i < 100 && !((await status()).ready && !(await status()).pending); i++) await new Promise((r) => setTimeout(r, 100));
    expect((await fetch(`${server.url}/v1/cached/translations/de`, { headers: h })).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    killLocalServers();
    await proxy?.close();
    await s3?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('cached reads and the status answer while it is silent, and after it answers again, without a restart', async () => {
    proxy.silence();
    // The pointer is checked again about once a second: give that check the chance to meet silence.
    await new Promise((r) => setTimeout(r, 1_500));
    const during = [await statusWithin(`${server.url}/v1/cached/translations/de`, h, 15_000), await statusWithin(`${server.url}/v1/cache/status`, h, 15_000)];
    proxy.answer();
    await new Promise((r) => setTimeout(r, 2_000));
    const after = [await statusWithin(`${server.url}/v1/cached/translations/de`, h, 15_000), await statusWithin(`${server.url}/v1/cache/status`, h, 15_000)];
    // During: the build in memory (200) or the envelope's 500; never no answer.
    expect(during[0] === 200 || during[0] === 500, `during: ${during[0]}`).toBe(true);
    expect(during[1]).toBe(200);
    expect(after).toEqual([200, 200]);
  }, 90_000);

  it('a build that met the silence fails and is built again once the store answers', async () => {
    proxy.silence();
    expect((await fetch(`${server.url}/v1/import/de?status=approved`, { method: 'POST', headers: h, body: '{"home.title":"Hallo"}' })).status).toBe(200);
    expect((await fetch(`${server.url}/v1/cache/rebuild`, { method: 'POST', headers: h })).status).toBe(202);
    await new Promise((r) => setTimeout(r, 3_000));
    proxy.answer();
    let value: string | undefined;
    for (let i = 0; i < 120 && value !== 'Hallo'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      const res = await fetch(`${server.url}/v1/cached/translations/de/home/home.title`, { headers: h });
      if (res.status === 200) value = ((await res.json()) as { value: string }).value;
    }
    expect(value).toBe('Hallo');
    expect((await status()).pending).toBe(false);
  }, 90_000);
});
