// Accept-Encoding's q-values are the client's preference (RFC 9110 12.4.2, 12.5.3): a client saying
// "gzip;q=1, br;q=0.1" prefers gzip (brotli decoding slow or buggy on its platform, a proxy that
// can only recompress gzip). The cached reads serve the stored coding with the highest q, ties going
// to br, then gzip, then identity.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { rebuild, seed } from '../support/cache-helpers.ts';
import { pickEncoding } from '../../functions/http/conditional.ts';

const t = useTestApp();

describe('Accept-Encoding preference', () => {
  it('serves the coding the client ranks highest among the stored ones', async () => {
    const p = await t.newProject('team');
    await seed(t, p, { 'home.title': { de: ['Hallo', 'approved'] } });
    await rebuild(t, p);
    for (const [acceptEncoding, expected] of [
      ['gzip;q=1, br;q=0.1', 'gzip'],
      ['br;q=0.2, gzip;q=0.9', 'gzip'],
      ['identity;q=1, br;q=0.5', null],
      ['gzip;q=0.5, br;q=0.5', 'br'],
      ['gzip, br', 'br'],
    ] as const) {
      const res = await t.call(p.apiKey, 'GET', '/v1/cached/translations/de', undefined, { 'Accept-Encoding': acceptEncoding });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding'), acceptEncoding).toBe(expected);
    }
  });

  it('ranks by q-value, breaks ties br > gzip > identity, and keeps x-gzip, * and q=0 as before', () => {
    const cases: [string, string][] = [
      ['gzip;q=1, br;q=0.1', 'gzip'],
      ['br; q=0.5, gzip; q=1', 'gzip'],
      ['BR;Q=0.9, GZIP;Q=0.8', 'br'],
      ['identity;q=1, br;q=0.5, gzip;q=0.5', 'identity'],
      ['identity;q=0.5, br;q=0.5', 'br'],
      ['identity;q=0.5, gzip;q=0.5', 'gzip'],
      ['identity;q=0, br;q=0, gzip;q=0', 'identity'],
      ['gzip;q=0.1', 'gzip'],
      ['x-gzip;q=0.8, br;q=0.3', 'gzip'],
      ['x-gzip;q=0.3, br;q=0.8', 'br'],
      ['*;q=0.5, br;q=0.1', 'gzip'],
      ['*', 'br'],
      ['*;q=0', 'identity'],
      ['*;q=0, gzip', 'gzip'],
      ['br;q=0, *;q=0.2', 'gzip'],
      ['br;q=abc, gzip;q=0.1', 'gzip'],
      ['br;q=, gzip;q=0.1', 'gzip'],
      ['gzip;level=9;q=0.2, br;q=0.1', 'gzip'],
      ['br ;q=0.1 , gzip ; q=0.9', 'gzip'],
      ['deflate, zstd', 'identity'],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [header, expected] of cases) expect(pickEncoding(header), `${header} (round ${round})`).toBe(expected);
    }
  });
});
