// The SDK's retry guidance (spec section 7) where timing matters, with a scripted fetch: 429 waits
// for Retry-After (or, beyond maxRetryWait, fails at once) and nothing is sent until the reset; a 500
// is retried once after 1 to 2 retryDelay; a 503 or no answer, 3 attempts with growing waits, a
// Retry-After beyond maxRetryWait failing at once; other 4xx never. A client holding a stored copy
// serves it at once instead of waiting. A 200 that is not a tms answer counts as no answer.
import { describe, expect, it } from 'vitest';
import { createClient, TmsError } from '../../sdk/src/index.ts';

type Step = number | { status: number; headers?: Record<string, string> } | 'offline';

const MANIFEST = { project_id: '00000000-0000-4000-8000-000000000000', languages: [{ code: 'de', name: 'German', iso: 'de', approved_count: 1 }] };
const FILE = { project_id: MANIFEST.project_id, language: 'de', status_filter: 'approved', count: 1, translations: { 'home.title': 'Willkommen' } };

/** Answers the manifest with 200 always, and the language file by `steps` in order (200 after the last). */
function scripted(steps: Step[]) {
  const times: number[] = [];
  let next = 0;
  const started = Date.now();
  const fetcher: typeof fetch = async (input) => {
    const path = new URL(String(input)).pathname;
    if (path === '/v1/cached/manifest') return Response.json(MANIFEST, { headers: { ETag: '"m1"' } });
    times.push(Date.now() - started);
    const step = steps[next++] ?? 200;
    if (step === 'offline') throw new TypeError('fetch failed');
    const { status, headers = {} } = typeof step === 'number' ? { status: step } : step;
    if (status === 200) return Response.json(FILE, { headers: { ETag: '"f1"' } });
    return Response.json({ detail: `status ${status}` }, { status, headers });
  };
  return { fetch: fetcher, times };
}

const client = (fetcher: typeof fetch, options: { retryDelay?: number; maxRetryWait?: number } = {}) =>
  createClient({ url: 'http://tms.test', key: 'key_live_x', storage: false, fetch: fetcher, retryDelay: 100, ...options });

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

describe('429', () => {
  it('waits for Retry-After, then reads', async () => {
    const s = scripted([{ status: 429, headers: { 'Retry-After': '1' } }]);
    expect(await client(s.fetch).getTranslations('de')).toEqual(FILE.translations);
    expect(s.times).toHaveLength(2);
    expect(gaps(s.times)[0]).toBeGreaterThanOrEqual(990);
  });

  it('a Retry-After beyond maxRetryWait fails at once, and nothing is sent until it has passed', async () => {
    const s = scripted([{ status: 429, headers: { 'Retry-After': '3600' } }]);
    const c = client(s.fetch, { maxRetryWait: 5_000 });
    const started = Date.now();
    const error = (await c.getTranslations('de').catch((e: unknown) => e)) as TmsError;
    expect(Date.now() - started).toBeLessThan(500);
    expect(error).toBeInstanceOf(TmsError);
    expect(error).toMatchObject({ status: 429, retryAfter: 3600 });
    const again = (await c.getTranslations('de').catch((e: unknown) => e)) as TmsError;
    expect(again).toMatchObject({ status: 429 });
    expect(again.retryAfter).toBeGreaterThan(3590);
    expect(s.times).toHaveLength(1);
  });

  it('while one call waits for the reset, the others send nothing: they wait for it too', async () => {
    const s = scripted([{ status: 429, headers: { 'Retry-After': '1' } }]);
    let requests = 0;
    const counted: typeof fetch = (input, init) => (requests++, s.fetch(input, init));
    const c = client(counted);
    const first = c.getTranslations('de');
    await new Promise((r) => setTimeout(r, 100));
    const sent = requests; // the manifest and the 429
    const second = c.getTranslations('de', 'home');
    await new Promise((r) => setTimeout(r, 500));
    expect(requests).toBe(sent);
    expect(await first).toEqual(FILE.translations);
    expect(await second).toEqual(FILE.translations);
    expect(s.times[1]! - s.times[0]!).toBeGreaterThanOrEqual(990);
    expect(s.times).toHaveLength(3);
  });

  it('with a stored copy: the copy at once, and no request until the reset', async () => {
    const s = scripted([200, { status: 429, headers: { 'Retry-After': '1' } }]);
    const c = client(s.fetch);
    await c.getTranslations('de');
    const started = Date.now();
    expect(await c.getTranslations('de')).toEqual(FILE.translations);
    expect(await c.getTranslations('de')).toEqual(FILE.translations);
    expect(Date.now() - started).toBeLessThan(500);
    expect(s.times).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 1050));
    await c.getTranslations('de');
    expect(s.times).toHaveLength(3);
  });
});

describe('5xx and no answer', () => {
  it('500: one retry after 1 to 2 retryDelay', async () => {
    const s = scripted([500]);
    expect(await client(s.fetch).getTranslations('de')).toEqual(FILE.translations);
    expect(s.times).toHaveLength(2);
    expect(gaps(s.times)[0]).toBeGreaterThanOrEqual(95);
    expect(gaps(s.times)[0]).toBeLessThan(300);
  });

  it('500 twice: the second is final', async () => {
    const s = scripted([500, 500]);
    await expect(client(s.fetch).getTranslations('de')).rejects.toMatchObject({ status: 500, detail: 'status 500' });
    expect(s.times).toHaveLength(2);
  });

  it('503: three attempts with exponential backoff, then the error', async () => {
    const s = scripted([503, 503, 503]);
    await expect(client(s.fetch).getTranslations('de')).rejects.toMatchObject({ status: 503 });
    expect(s.times).toHaveLength(3);
    const [first, second] = gaps(s.times) as [number, number];
    expect(first).toBeGreaterThanOrEqual(70); // 100 ms x 0.75..1.25
    expect(second).toBeGreaterThanOrEqual(145); // 200 ms x 0.75..1.25
  });

  it('503 with Retry-After waits at least that long', async () => {
    const s = scripted([{ status: 503, headers: { 'Retry-After': '1' } }]);
    expect(await client(s.fetch).getTranslations('de')).toEqual(FILE.translations);
    expect(gaps(s.times)[0]).toBeGreaterThanOrEqual(990);
  });

  it.each([
    [503, '3600', 30_000],
    [503, '45', 30_000],
    [502, '3600', 5_000],
    [504, new Date(Date.now() + 3_600_000).toUTCString(), 5_000],
  ])('%i with Retry-After %s beyond maxRetryWait %i: fails at once instead of waiting', async (status, retryAfter, maxRetryWait) => {
    const s = scripted([{ status, headers: { 'Retry-After': retryAfter } }]);
    const started = Date.now();
    const error = (await client(s.fetch, { maxRetryWait }).getTranslations('de').catch((e: unknown) => e)) as TmsError;
    expect(Date.now() - started).toBeLessThan(500);
    expect(error).toBeInstanceOf(TmsError);
    expect(error.status).toBe(status);
    expect(error.retryAfter).toBeGreaterThan(maxRetryWait / 1000);
    expect(s.times).toHaveLength(1);
  });

  it('503 with a long Retry-After and a stored copy: the copy at once', async () => {
    const s = scripted([200, { status: 503, headers: { 'Retry-After': '3600' } }]);
    const c = client(s.fetch);
    const before = await c.getTranslations('de');
    const started = Date.now();
    expect(await c.getTranslations('de')).toEqual(before);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('no answer: retried like a 503, then status 0', async () => {
    const recovered = scripted(['offline', 'offline']);
    expect(await client(recovered.fetch).getTranslations('de')).toEqual(FILE.translations);
    expect(recovered.times).toHaveLength(3);
    const gone = scripted(['offline', 'offline', 'offline']);
    await expect(client(gone.fetch).getTranslations('de')).rejects.toMatchObject({ status: 0 });
  });
});

describe('final answers', () => {
  it.each([400, 401, 403, 404, 422])('%i: one request, no retry', async (status) => {
    const s = scripted([status]);
    await expect(client(s.fetch).getTranslations('de')).rejects.toMatchObject({ status, detail: `status ${status}` });
    expect(s.times).toHaveLength(1);
  });
});

describe('answers of the wrong shape', () => {
  /** A manifest answered 200 with `body` once `broken` is set (a proxy's or a portal's JSON). */
  function brokenManifest(body: unknown) {
    const s = scripted([]);
    const state = { broken: false };
    const fetcher: typeof fetch = async (input, init) =>
      state.broken && new URL(String(input)).pathname === '/v1/cached/manifest' ? Response.json(body) : s.fetch(input, init);
    return { fetch: fetcher, state };
  }

  it.each([[{ detail: 'ok' }], [{ languages: 'de' }], [{ languages: [null] }], [[]], [null], ['hello']])(
    'a 200 manifest %j: the stored copy when there is one, else a clear error',
    async (body) => {
      const b = brokenManifest(body);
      const c = client(b.fetch);
      const online = await c.getTranslations('de');
      b.state.broken = true;
      expect(await c.getTranslations('de')).toEqual(online);
      expect((await c.getManifest()).languages[0]!.code).toBe('de');

      const empty = client(b.fetch, { retryDelay: 1 });
      const error = (await empty.getManifest().catch((e: unknown) => e)) as TmsError;
      expect(error).toBeInstanceOf(TmsError);
      expect(error).toMatchObject({ status: 0, message: expect.stringContaining('not a tms manifest') });
      await expect(empty.getTranslations('de')).rejects.toMatchObject({ status: 0 });
    },
  );

  it('a 200 language file without translations: the stored copy when there is one, else a clear error', async () => {
    let broken = false;
    const s = scripted([]);
    const fetcher: typeof fetch = async (input, init) =>
      broken && new URL(String(input)).pathname !== '/v1/cached/manifest' ? Response.json({ detail: 'ok' }) : s.fetch(input, init);
    const empty = client(fetcher);
    broken = true;
    await expect(empty.getTranslations('de')).rejects.toMatchObject({ status: 0, message: expect.stringContaining('not a tms file') });
    broken = false;
    const c = client(fetcher);
    const online = await c.getTranslations('de');
    broken = true;
    expect(await c.getTranslations('de')).toEqual(online);
  });
});
