// A value's version as its ETag, and If-Match on PUT and DELETE: a write never silently overwrites
// a change made since the writer read the value (412, nothing written).
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';

const t = useTestApp();

async function oneKey() {
  const p = await t.newProject('team');
  expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
  const key = await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.title', group_name: 'home' })).json();
  const url = `/v1/keys/${key.id}/translations/de`;
  return { p, keyId: key.id as string, url };
}

const etagOf = (res: Response) => res.headers.get('etag');

describe('value versions and ETags', () => {
  it('GET, PUT answer the version as a strong ETag and a field; every write moves it; a re-created value never reuses one', async () => {
    const { p, url } = await oneKey();
    expect((await t.call(p.apiKey, 'GET', url)).status).toBe(404);
    const put = await t.call(p.apiKey, 'PUT', url, { value: 'Hallo' });
    expect(put.status).toBe(200);
    const written = await put.json();
    expect(etagOf(put)).toBe(`"${written.version}"`);
    const read = await t.call(p.apiKey, 'GET', url);
    expect(read.status).toBe(200);
    // The read is the written value without the write's quality warnings, and with whether it is outdated.
    const { warnings, ...value } = written;
    expect(warnings).toEqual([]);
    expect(await read.json()).toEqual({ ...value, outdated: false });
    expect(etagOf(read)).toBe(etagOf(put));
    expect(read.headers.get('cache-control')).toBe('no-store');

    const again = await t.call(p.apiKey, 'PUT', url, { value: 'Hallo', status: 'review' });
    expect((await again.json()).version).toBeGreaterThan(written.version);
    expect((await t.call(p.apiKey, 'DELETE', url)).status).toBe(204);
    const recreated = await (await t.call(p.apiKey, 'PUT', url, { value: 'Hallo' })).json();
    expect(recreated.version).toBeGreaterThan(written.version + 1);
  });
});

describe('If-Match', () => {
  it('PUT with the current ETag writes; with a stale one 412 in the envelope and nothing written', async () => {
    const { p, keyId, url } = await oneKey();
    const first = await t.call(p.apiKey, 'PUT', url, { value: 'eins' });
    const seen = etagOf(first)!;
    const ok = await t.call(p.apiKey, 'PUT', url, { value: 'zwei' }, { 'If-Match': seen });
    expect(ok.status).toBe(200);
    const stale = await t.call(p.apiKey, 'PUT', url, { value: 'drei' }, { 'If-Match': seen });
    expect(stale.status).toBe(412);
    const { detail } = await stale.json();
    expect(detail).toMatchObject({
      code: 'PRECONDITION_FAILED',
      conflicts: [{ key_id: keyId, language: 'de', expected: Number(seen.replaceAll('"', '')), current: ((await ok.clone().json()) as { version: number }).version }],
    });
    expect(typeof detail.message).toBe('string');
    expect((await (await t.call(p.apiKey, 'GET', url)).json()).value).toBe('zwei');
    // A list with the current tag matches; * matches an existing value; weak or foreign tags never do.
    expect((await t.call(p.apiKey, 'PUT', url, { value: 'vier' }, { 'If-Match': `"1", ${etagOf(ok)}` })).status).toBe(200);
    expect((await t.call(p.apiKey, 'PUT', url, { value: 'fünf' }, { 'If-Match': '*' })).status).toBe(200);
    const current = etagOf(await t.call(p.apiKey, 'GET', url))!;
    expect((await t.call(p.apiKey, 'PUT', url, { value: 'x' }, { 'If-Match': `W/${current}` })).status).toBe(412);
    expect((await t.call(p.apiKey, 'PUT', url, { value: 'x' }, { 'If-Match': 'garbage' })).status).toBe(412);
    expect((await (await t.call(p.apiKey, 'GET', url)).json()).value).toBe('fünf');
  });

  it('PUT with If-Match on a value that does not exist is 412 (nothing created); an unknown key stays 404', async () => {
    const { p, url } = await oneKey();
    for (const tag of ['*', '"5"']) {
      const res = await t.call(p.apiKey, 'PUT', url, { value: 'neu' }, { 'If-Match': tag });
      expect(res.status, tag).toBe(412);
      expect((await res.json()).detail.conflicts[0].current).toBeNull();
    }
    expect((await t.call(p.apiKey, 'GET', url)).status).toBe(404);
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${crypto.randomUUID()}/translations/de`, { value: 'x' }, { 'If-Match': '*' })).status).toBe(404);
    expect((await t.call(p.apiKey, 'PUT', url.replace(/\/de$/, '/fr'), { value: 'x' }, { 'If-Match': '*' })).status).toBe(404);
  });

  it('a value deleted since it was read is not created again by a conditional PUT, even racing the delete', async () => {
    const { p, url } = await oneKey();
    const tag = etagOf(await t.call(p.apiKey, 'PUT', url, { value: 'eins' }))!;
    expect((await t.call(p.apiKey, 'DELETE', url)).status).toBe(204);
    const res = await t.call(p.apiKey, 'PUT', url, { value: 'zwei' }, { 'If-Match': tag });
    expect(res.status).toBe(412);
    expect((await res.json()).detail.conflicts[0].current).toBeNull();
    expect((await t.call(p.apiKey, 'GET', url)).status).toBe(404);
    for (let round = 0; round < 5; round++) {
      const current = etagOf(await t.call(p.apiKey, 'PUT', url, { value: `r${round}` }))!;
      const [put, del] = await Promise.all([
        t.call(p.apiKey, 'PUT', url, { value: 'conditional' }, { 'If-Match': current }),
        t.call(p.apiKey, 'DELETE', url),
      ]);
      expect(del.status).toBe(204);
      // Either the PUT came first (then the DELETE removed it) or it met no value: never a value afterwards.
      expect([200, 412]).toContain(put.status);
      expect((await t.call(p.apiKey, 'GET', url)).status).toBe(404);
    }
  });

  it('DELETE with a stale ETag is 412 and the value stays; with the current one it goes; without If-Match unchanged', async () => {
    const { p, url } = await oneKey();
    const first = etagOf(await t.call(p.apiKey, 'PUT', url, { value: 'eins' }))!;
    const second = etagOf(await t.call(p.apiKey, 'PUT', url, { value: 'zwei' }))!;
    const stale = await t.call(p.apiKey, 'DELETE', url, undefined, { 'If-Match': first });
    expect(stale.status).toBe(412);
    expect((await stale.json()).detail.code).toBe('PRECONDITION_FAILED');
    expect((await t.call(p.apiKey, 'GET', url)).status).toBe(200);
    expect((await t.call(p.apiKey, 'DELETE', url, undefined, { 'If-Match': second })).status).toBe(204);
    expect((await t.call(p.apiKey, 'DELETE', url, undefined, { 'If-Match': second })).status).toBe(404);
    await t.call(p.apiKey, 'PUT', url, { value: 'drei' });
    expect((await t.call(p.apiKey, 'DELETE', url)).status).toBe(204);
  });

  it("two editors who read the same version: the second's write is refused, never silently lost", async () => {
    const { p, url } = await oneKey();
    const base = etagOf(await t.call(p.apiKey, 'PUT', url, { value: 'original' }))!;
    const [a, b] = await Promise.all([
      t.call(p.apiKey, 'PUT', url, { value: 'editor A' }, { 'If-Match': base }),
      t.call(p.apiKey, 'PUT', url, { value: 'editor B' }, { 'If-Match': base }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 412]);
    const winner = a.status === 200 ? 'editor A' : 'editor B';
    expect((await (await t.call(p.apiKey, 'GET', url)).json()).value).toBe(winner);
    const events = await t.runtime.deps.sql`select 1 from domain_events where project_id = ${p.projectId} and type = 'translation.written'`;
    expect(events).toHaveLength(2); // the original and the winner
  });

  it('twenty concurrent conditional writes of one version: exactly one wins', async () => {
    const { p, url } = await oneKey();
    const base = etagOf(await t.call(p.apiKey, 'PUT', url, { value: 'original' }))!;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => t.call(p.apiKey, 'PUT', url, { value: `w${i}` }, { 'If-Match': base })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 412)).toHaveLength(19);
  });

  it("another project's value is 404 whatever the If-Match", async () => {
    const { p, url } = await oneKey();
    const tag = etagOf(await t.call(p.apiKey, 'PUT', url, { value: 'mine' }))!;
    const other = await t.newProject('team');
    await t.call(other.apiKey, 'POST', '/v1/languages', { code: 'de' });
    expect((await t.call(other.apiKey, 'GET', url)).status).toBe(404);
    expect((await t.call(other.apiKey, 'PUT', url, { value: 'theirs' }, { 'If-Match': tag })).status).toBe(404);
    expect((await t.call(other.apiKey, 'DELETE', url, undefined, { 'If-Match': tag })).status).toBe(404);
    expect((await (await t.call(p.apiKey, 'GET', url)).json()).value).toBe('mine');
  });

  it('If-None-Match: * creates only: the first write lands, a later one is 412 with the value untouched', async () => {
    const { p, keyId, url } = await oneKey();
    const first = await t.call(p.apiKey, 'PUT', url, { value: 'Erste' }, { 'If-None-Match': '*' });
    expect(first.status).toBe(200);
    const version = (await first.json()).version;
    const second = await t.call(p.apiKey, 'PUT', url, { value: 'Zweite' }, { 'If-None-Match': '*' });
    expect(second.status).toBe(412);
    expect((await second.json()).detail).toEqual({
      code: 'PRECONDITION_FAILED',
      message: expect.stringContaining('already exists'),
      conflicts: [{ key_id: keyId, language: 'de', expected: null, current: version }],
    });
    const read = await t.call(p.apiKey, 'GET', url);
    expect((await read.json()).value).toBe('Erste');
    // An unknown key stays a 404 whatever the condition.
    expect((await t.call(p.apiKey, 'PUT', url.replace(keyId, '00000000-0000-4000-8000-000000000000'), { value: 'x' }, { 'If-None-Match': '*' })).status).toBe(404);
  });

  it('If-None-Match with tags writes unless the value is at one of them (weak comparison); with If-Match, both must hold', async () => {
    const { p, keyId, url } = await oneKey();
    const tag = etagOf(await t.call(p.apiKey, 'PUT', url, { value: 'eins' }))!;
    expect((await t.call(p.apiKey, 'PUT', url, { value: 'zwei' }, { 'If-None-Match': `W/${tag}` })).status).toBe(412);
    expect((await t.call(p.apiKey, 'PUT', url, { value: 'zwei' }, { 'If-None-Match': '"999999", ' + tag })).status).toBe(412);
    const moved = await t.call(p.apiKey, 'PUT', url, { value: 'zwei' }, { 'If-None-Match': '"999999"' });
    expect(moved.status).toBe(200);
    const current = etagOf(moved)!;
    const version = Number(current.slice(1, -1));
    // Both sent: If-None-Match is judged after an If-Match that held (RFC 9110 13.2.2).
    const excluded = await t.call(p.apiKey, 'PUT', url, { value: 'drei' }, { 'If-Match': current, 'If-None-Match': current });
    expect(excluded.status).toBe(412);
    expect((await excluded.json()).detail.conflicts).toEqual([{ key_id: keyId, language: 'de', expected: version, current: version }]);
    // `*` and `*` never both hold: the value exists, so If-None-Match refuses.
    expect((await t.call(p.apiKey, 'PUT', url, { value: 'drei' }, { 'If-Match': '*', 'If-None-Match': '*' })).status).toBe(412);
    // If-Match is judged first: a stale one answers for itself.
    const stale = await t.call(p.apiKey, 'PUT', url, { value: 'drei' }, { 'If-Match': tag, 'If-None-Match': '"999999"' });
    expect(stale.status).toBe(412);
    expect((await stale.json()).detail.conflicts[0].expected).toBe(Number(tag.slice(1, -1)));
    expect((await (await t.call(p.apiKey, 'GET', url)).json()).value).toBe('zwei');
    const both = await t.call(p.apiKey, 'PUT', url, { value: 'drei' }, { 'If-Match': current, 'If-None-Match': '"999999"' });
    expect(both.status).toBe(200);
    expect((await (await t.call(p.apiKey, 'GET', url)).json()).value).toBe('drei');
  });

  it('DELETE with If-None-Match deletes unless the value is at one of its versions', async () => {
    const { p, url } = await oneKey();
    const tag = etagOf(await t.call(p.apiKey, 'PUT', url, { value: 'eins' }))!;
    expect((await t.call(p.apiKey, 'DELETE', url, undefined, { 'If-None-Match': tag })).status).toBe(412);
    expect((await t.call(p.apiKey, 'DELETE', url, undefined, { 'If-None-Match': '*' })).status).toBe(412);
    expect((await t.call(p.apiKey, 'DELETE', url, undefined, { 'If-Match': tag, 'If-None-Match': tag })).status).toBe(412);
    expect((await t.call(p.apiKey, 'DELETE', url, undefined, { 'If-None-Match': '42' })).status).toBe(422);
    expect((await t.call(p.apiKey, 'GET', url)).status).toBe(200);
    expect((await t.call(p.apiKey, 'DELETE', url, undefined, { 'If-None-Match': '"999999"' })).status).toBe(204);
    expect((await t.call(p.apiKey, 'DELETE', url, undefined, { 'If-None-Match': '*' })).status).toBe(404);
  });

  it('twenty concurrent create-only writes of a missing value: exactly one lands', async () => {
    const { p, url } = await oneKey();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => t.call(p.apiKey, 'PUT', url, { value: `v${i}` }, { 'If-None-Match': '*' })),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 412)).toHaveLength(19);
    const winner = answers.find((r) => r.status === 200)!;
    expect((await (await t.call(p.apiKey, 'GET', url)).json()).value).toBe((await winner.json()).value);
  });

  it('GET with If-None-Match naming the current version is a 304, not counted; a stale one a 200', async () => {
    const { p, url } = await oneKey();
    const tag = etagOf(await t.call(p.apiKey, 'PUT', url, { value: 'Hallo' }))!;
    const fresh = await t.call(p.apiKey, 'GET', url, undefined, { 'If-None-Match': tag });
    expect(fresh.status).toBe(304);
    expect(fresh.headers.get('etag')).toBe(tag);
    expect(await fresh.text()).toBe('');
    expect((await t.call(p.apiKey, 'GET', url, undefined, { 'If-None-Match': `W/${tag}` })).status).toBe(304);
    const remaining = Number((await t.call(p.apiKey, 'GET', url)).headers.get('x-ratelimit-remaining'));
    expect((await t.call(p.apiKey, 'GET', url, undefined, { 'If-None-Match': tag })).status).toBe(304);
    expect(Number((await t.call(p.apiKey, 'GET', url)).headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    await t.call(p.apiKey, 'PUT', url, { value: 'Neu' });
    const stale = await t.call(p.apiKey, 'GET', url, undefined, { 'If-None-Match': tag });
    expect(stale.status).toBe(200);
    expect((await stale.json()).value).toBe('Neu');
  });

  it('an id in capitals is answered in the canonical lowercase form', async () => {
    const { p, keyId, url } = await oneKey();
    const res = await t.call(p.apiKey, 'PUT', url.replace(keyId, keyId.toUpperCase()), { value: 'Hallo' });
    expect(res.status).toBe(200);
    expect((await res.json()).key_id).toBe(keyId);
    expect((await (await t.call(p.apiKey, 'GET', url.replace(keyId, keyId.toUpperCase()))).json()).key_id).toBe(keyId);
  });
});
