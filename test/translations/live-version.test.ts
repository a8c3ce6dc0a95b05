// Live reads stay live while their bodies are memoized by the project's content version: every
// write path moves the version (a trigger at commit), a read after a write's answer shows it, no
// read mixes two versions, and a strong ETag makes If-None-Match a 304 until the content changes.
// On embedded PGlite transactions are serialized; the concurrent cases mean most on real Postgres
// (DATABASE_URL), where readers and writers run on different backends.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, project, type Project } from './helpers.ts';

const t = useTestApp();

const LIVE_PATHS = ['/v1/translations/de', '/v1/translations/de/home', '/v1/translations/de/home/home.title', '/v1/manifest'];

async function read(p: Project, path: string, headers: Record<string, string> = {}) {
  return t.call(p.apiKey, 'GET', path, undefined, headers);
}

describe('live reads: ETag, 304 and Cache-Control', () => {
  it('every live endpoint answers a strong ETag and private, no-cache; If-None-Match is a 304 until a write', async () => {
    const p = await project(t, ['de']);
    const k = await p.key('home.title', 'home');
    await p.put(k, 'de', 'Willkommen', 'approved');
    for (const path of LIVE_PATHS) {
      const first = await read(p, path);
      expect(first.status, path).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag, path).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      expect(first.headers.get('cache-control')).toBe('private, no-cache');
      expect(first.headers.get('content-type')).toMatch(/^application\/json/);
      const again = await read(p, path);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe(await first.text());

      const revalidated = await read(p, path, { 'If-None-Match': etag });
      expect(revalidated.status, path).toBe(304);
      expect(await revalidated.text()).toBe('');
      expect(revalidated.headers.get('etag')).toBe(etag);
      expect(revalidated.headers.get('cache-control')).toBe('private, no-cache');
      // Weak comparison, lists and other tags (RFC 9110 13.1.2).
      expect((await read(p, path, { 'If-None-Match': `"x", W/${etag}` })).status).toBe(304);
      expect((await read(p, path, { 'If-None-Match': '"x"' })).status).toBe(200);
    }
    const before = await Promise.all(LIVE_PATHS.map(async (path) => (await read(p, path)).headers.get('etag')!));
    await p.put(k, 'de', 'Hallo', 'approved');
    for (const [i, path] of LIVE_PATHS.entries()) {
      const res = await read(p, path, { 'If-None-Match': before[i]! });
      if (path === '/v1/manifest') {
        // The ETag names the bytes: a new text with the same status leaves the manifest as it was.
        expect(res.status, path).toBe(304);
        continue;
      }
      expect(res.status, path).toBe(200);
      expect(res.headers.get('etag')).not.toBe(before[i]);
    }
    expect((await body(await read(p, '/v1/translations/de/home/home.title'))).value).toBe('Hallo');
  });

  it('bodies and ETags differ by filter and by project; another project\'s ETag is no 304', async () => {
    const a = await project(t, ['de']);
    const b = await project(t, ['de']);
    for (const p of [a, b]) await p.put(await p.key('home.title', 'home'), 'de', 'Gleich', 'approved');
    const etagA = (await read(a, '/v1/translations/de')).headers.get('etag')!;
    const resB = await read(b, '/v1/translations/de', { 'If-None-Match': etagA });
    expect(resB.status).toBe(200);
    expect((await body(resB)).project_id).toBe(b.projectId);
    const all = await read(a, '/v1/translations/de?status=all', { 'If-None-Match': etagA });
    expect(all.status).toBe(200);
    expect((await body(all)).status_filter).toBe('all');
  });

  it('a 404 stays a 404 without an ETag, and turns into a 200 as soon as the value is written', async () => {
    const p = await project(t, ['de']);
    const k = await p.key('home.title', 'home');
    const missing = await read(p, '/v1/translations/de/home/home.title');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
    await p.put(k, 'de', 'Da', 'approved');
    expect((await body(await read(p, '/v1/translations/de/home/home.title'))).value).toBe('Da');
  });
});

describe('live reads: every write path moves the version', () => {
  it('PUT, DELETE of a value, import, group rename, language removal, key delete, group delete', async () => {
    const p = await project(t, ['de', 'fr']);
    const k1 = await p.key('home.title', 'home');
    const k2 = await p.key('home.body', 'home');
    await p.put(k1, 'de', 'eins', 'approved');
    await p.put(k2, 'de', 'zwei', 'approved');
    await p.put(k1, 'fr', 'un', 'approved');
    const snapshot = async () => {
      const out: string[] = [];
      for (const path of ['/v1/translations/de?status=all', '/v1/translations/de/home', '/v1/manifest', '/v1/translations/de/home/home.title']) {
        const res = await read(p, path);
        out.push(`${res.status} ${await res.text()}`);
      }
      return out;
    };
    const steps: [string, () => Promise<Response>][] = [
      ['PUT', () => t.call(p.apiKey, 'PUT', `/v1/keys/${k1}/translations/de`, { value: 'eins!', status: 'approved' })],
      ['status change', () => t.call(p.apiKey, 'PUT', `/v1/keys/${k2}/translations/de`, { value: 'zwei', status: 'review' })],
      ['DELETE value', () => t.call(p.apiKey, 'DELETE', `/v1/keys/${k2}/translations/de`)],
      ['import', () => t.call(p.apiKey, 'POST', '/v1/import/de?format=json&status=approved', { 'home.new': 'neu' })],
      ['group rename', () => t.call(p.apiKey, 'PATCH', '/v1/groups/home', { new_name: 'start' })],
      ['group rename back', () => t.call(p.apiKey, 'PATCH', '/v1/groups/start', { new_name: 'home' })],
      ['language removal', () => t.call(p.apiKey, 'DELETE', '/v1/languages/fr')],
      ['key delete', () => t.call(p.apiKey, 'DELETE', `/v1/keys/${k1}`)],
      ['group delete', () => t.call(p.apiKey, 'DELETE', '/v1/groups/home')],
    ];
    let previous = await snapshot();
    for (const [name, step] of steps) {
      const res = await step();
      expect(res.status, `${name}: ${await res.clone().text()}`).toBeLessThan(300);
      const now = await snapshot();
      expect(now, name).not.toEqual(previous);
      // What the memo serves equals what a fresh process would build: read twice, same bytes.
      expect(await snapshot(), name).toEqual(now);
      previous = now;
    }
    expect((await read(p, '/v1/translations/de')).status).toBe(404);
    expect((await body(await read(p, '/v1/manifest'))).languages).toEqual([]);
  });

  it('the version is per project: a write in another project keeps this one\'s ETag', async () => {
    const a = await project(t, ['de']);
    const b = await project(t, ['de']);
    await a.put(await a.key('home.title', 'home'), 'de', 'A', 'approved');
    const kb = await b.key('home.title', 'home');
    const etag = (await read(a, '/v1/translations/de')).headers.get('etag')!;
    const [version] = await t.runtime.deps.sql<{ v: string }[]>`
      select coalesce(sum(version), 0)::text as v from project_content_versions where project_id = ${a.projectId}`;
    await b.put(kb, 'de', 'B', 'approved');
    const [after] = await t.runtime.deps.sql<{ v: string }[]>`
      select coalesce(sum(version), 0)::text as v from project_content_versions where project_id = ${a.projectId}`;
    expect(after!.v).toBe(version!.v);
    expect((await read(a, '/v1/translations/de', { 'If-None-Match': etag })).status).toBe(304);
  });
});

describe('live reads under concurrent writers', () => {
  it('a read started after a write was answered shows it, and no read mixes two versions', async () => {
    const p = await project(t, ['de']);
    const KEYS = 20;
    const ids: string[] = [];
    for (let i = 0; i < KEYS; i++) ids.push(await p.key(`mix.k${String(i).padStart(2, '0')}`, 'mix'));
    for (let i = 0; i < 4; i++) ids.push(await p.key(`own.w${i}`, 'own'));
    const generation = (g: number) => Object.fromEntries(ids.slice(0, KEYS).map((_, i) => [`mix.k${String(i).padStart(2, '0')}`, `g${g}`]));

    // Importer: rewrites every value of group "mix" in one transaction per generation.
    let importedAnswered = 0;
    const GENERATIONS = 12;
    const importer = (async () => {
      for (let g = 1; g <= GENERATIONS; g++) {
        const res = await t.call(p.apiKey, 'POST', '/v1/import/de?format=json&status=approved', generation(g));
        expect(res.status, await res.clone().text()).toBe(200);
        importedAnswered = g;
      }
    })();
    // Four PUT writers, each on its own key, counting up.
    const answered = [0, 0, 0, 0];
    const writers = answered.map(async (_, w) => {
      for (let n = 1; n <= 15; n++) {
        const res = await t.call(p.apiKey, 'PUT', `/v1/keys/${ids[KEYS + w]}/translations/de`, { value: `n${n}`, status: 'approved' });
        expect(res.status).toBe(200);
        answered[w] = n;
      }
    });
    let done = false;
    const reads = { total: 0, checked: 0 };
    const readers = Array.from({ length: 4 }, async (_, r) => {
      while (!done) {
        const importFloor = importedAnswered;
        const writerFloor = [...answered];
        const path = r % 2 === 0 ? '/v1/translations/de' : '/v1/translations/de/mix';
        const res = await read(p, path);
        reads.total++;
        if (res.status === 404) {
          expect(importFloor, 'a 404 only before the first import').toBe(0);
          continue;
        }
        expect(res.status).toBe(200);
        const translations = (await body(res)).translations as Record<string, string>;
        const mix = Object.entries(translations).filter(([key]) => key.startsWith('mix.'));
        if (mix.length > 0) {
          reads.checked++;
          expect(mix.length, 'one import is all or nothing').toBe(KEYS);
          const seen = new Set(mix.map(([, value]) => value));
          expect([...seen], 'values of one generation only').toHaveLength(1);
          expect(Number([...seen][0]!.slice(1)), 'at least the last answered import').toBeGreaterThanOrEqual(importFloor);
        } else {
          expect(importFloor).toBe(0);
        }
        if (path === '/v1/translations/de') {
          for (const [w, floor] of writerFloor.entries()) {
            const value = translations[`own.w${w}`];
            if (floor === 0) continue;
            expect(value, `writer ${w} answered n${floor} before this read`).toBeDefined();
            expect(Number(value!.slice(1))).toBeGreaterThanOrEqual(floor);
          }
        }
      }
    });
    await Promise.all([importer, ...writers]);
    done = true;
    await Promise.all(readers);
    expect(reads.checked).toBeGreaterThan(0);
    const final = (await body(await read(p, '/v1/translations/de'))).translations;
    expect(final['mix.k00']).toBe(`g${GENERATIONS}`);
    for (let w = 0; w < 4; w++) expect(final[`own.w${w}`]).toBe('n15');
  });
});

describe('live reads of one body arriving together share a statement', () => {
  it('32 concurrent reads of one key: far fewer statements than reads, every read right', async () => {
    const p = await project(t, ['de']);
    const id = await p.key('hot.key', 'hot');
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'v1', status: 'approved' })).status).toBe(200);
    expect((await read(p, '/v1/translations/de/hot/hot.key')).status).toBe(200); // the API key verified and cached first
    const statements: string[] = [];
    const options = t.runtime.deps.sql.options as { debug?: unknown };
    options.debug = (_connection: number, query: string) => statements.push(query);
    let answers: Response[];
    try {
      answers = await Promise.all(Array.from({ length: 32 }, () => read(p, '/v1/translations/de/hot/hot.key')));
    } finally {
      options.debug = false;
    }
    for (const res of answers) expect(await body(res)).toMatchObject({ key: 'hot.key', value: 'v1' });
    const reads = statements.filter((q) => q.includes('project_content_versions'));
    expect(reads.length).toBeGreaterThanOrEqual(1);
    expect(reads.length, 'one statement per batch, not per read (32 without batching)').toBeLessThanOrEqual(16);
  });

  it('16 readers of one body racing a writer: every read shows at least the last answered write', async () => {
    const p = await project(t, ['de']);
    const id = await p.key('race.key', 'race');
    let answered = 0;
    const writer = (async () => {
      for (let n = 1; n <= 30; n++) {
        const res = await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: `n${n}`, status: 'approved' });
        expect(res.status).toBe(200);
        answered = n;
      }
    })();
    let done = false;
    let checked = 0;
    const readers = Array.from({ length: 16 }, async () => {
      while (!done) {
        const floor = answered;
        const res = await read(p, '/v1/translations/de/race/race.key');
        if (res.status === 404) {
          expect(floor, 'a 404 only before the first write').toBe(0);
          continue;
        }
        const { value } = await body(res);
        expect(Number(String(value).slice(1)), `write n${floor} was answered before this read`).toBeGreaterThanOrEqual(floor);
        checked++;
      }
    });
    await writer;
    done = true;
    await Promise.all(readers);
    expect(checked).toBeGreaterThan(16);
  });
});

describe("live reads of a project's memoized bodies share the version question", () => {
  it('32 concurrent reads of 32 different keys, each memoized: far fewer statements than reads, every read right', async () => {
    const p = await project(t, ['de']);
    const ids: string[] = [];
    for (let i = 0; i < 32; i++) {
      ids.push(await p.key(`many.k${i}`, 'many'));
      await p.put(ids[i]!, 'de', `v${i}`, 'approved');
    }
    // Each body read once, so the memo holds all 32 (and the API key is verified and cached).
    for (let i = 0; i < 32; i++) expect((await read(p, `/v1/translations/de/many/many.k${i}`)).status).toBe(200);
    const statements: string[] = [];
    const options = t.runtime.deps.sql.options as { debug?: unknown };
    options.debug = (_connection: number, query: string) => statements.push(query);
    let answers: Response[];
    try {
      answers = await Promise.all(Array.from({ length: 32 }, (_, i) => read(p, `/v1/translations/de/many/many.k${i}`)));
    } finally {
      options.debug = false;
    }
    for (const [i, res] of answers.entries()) expect(await body(res)).toMatchObject({ key: `many.k${i}`, value: `v${i}` });
    const asked = statements.filter((q) => q.includes('project_content_versions'));
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(asked.length, 'one version question per batch, not one statement per body (32 before)').toBeLessThanOrEqual(16);
    // Nothing had moved: no body was built again.
    expect(statements.filter((q) => q.includes('translation_keys'))).toEqual([]);
  });

  it('readers of four memoized keys racing a writer of all four: every read shows at least the last answered write of its key', async () => {
    const p = await project(t, ['de']);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(await p.key(`mix.k${i}`, 'mix'));
      await p.put(ids[i]!, 'de', 'n0', 'approved');
      expect((await read(p, `/v1/translations/de/mix/mix.k${i}`)).status).toBe(200);
    }
    const answered = [0, 0, 0, 0];
    const writer = (async () => {
      for (let n = 1; n <= 12; n++) {
        for (let i = 0; i < 4; i++) {
          const res = await t.call(p.apiKey, 'PUT', `/v1/keys/${ids[i]}/translations/de`, { value: `n${n}`, status: 'approved' });
          expect(res.status).toBe(200);
          answered[i] = n;
        }
      }
    })();
    let done = false;
    let checked = 0;
    const readers = Array.from({ length: 16 }, async (_, r) => {
      const i = r % 4;
      while (!done) {
        const floor = answered[i]!;
        const { value } = await body(await read(p, `/v1/translations/de/mix/mix.k${i}`));
        expect(Number(String(value).slice(1)), `write n${floor} of mix.k${i} was answered before this read`).toBeGreaterThanOrEqual(floor);
        checked++;
      }
    });
    await writer;
    done = true;
    await Promise.all(readers);
    expect(checked).toBeGreaterThan(16);
    // After the last write, each body shows it.
    for (let i = 0; i < 4; i++) expect((await body(await read(p, `/v1/translations/de/mix/mix.k${i}`))).value).toBe('n12');
  });
});
