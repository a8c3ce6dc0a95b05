// The object store failing under the cached reads (a bucket that does not exist, a store that does
// not answer): the spec's 500 for a degraded dependency, with the envelope's "dependency is
// unavailable" and a `dependency unreachable` log line, never an "Internal server error" logged as
// an unhandled error (which reads like a bug in tms).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../core/log.ts';
import { startS3Server } from '../support/s3-server.ts';
import { startTestApp } from '../support/test-app.ts';

describe('cached reads when the object store fails', () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  beforeAll(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
    process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.close();
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    else process.env.AWS_ACCESS_KEY_ID = saved.id;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
    else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  });

  it('a bucket that does not exist: 500 "dependency is unavailable" on cached reads and the status', async () => {
    const log = createMemoryLogger();
    const app = await startTestApp({
      log,
      env: { S3_BUCKET: 'no-such-bucket', S3_ENDPOINT: s3.endpoint, S3_FORCE_PATH_STYLE: 'true', S3_REGION: 'us-east-1' },
    });
    try {
      const p = await app.newProject('team');
      for (const path of ['/v1/cached/manifest', '/v1/cached/translations/de', '/v1/cache/status']) {
        const res = await app.call(p.apiKey, 'GET', path);
        expect(res.status, path).toBe(500);
        expect(await res.json(), path).toEqual({ detail: 'A dependency is unavailable; retry once after 1 to 2 seconds' });
      }
      const lines = log.lines.map((line) => line.msg);
      expect(lines).toContain('dependency unreachable');
      expect(lines).not.toContain('unhandled error');
    } finally {
      await app.close();
    }
  }, 60_000);
});
