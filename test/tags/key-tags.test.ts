// Tags on keys through the API: written on create and PATCH (the whole set, sorted, without
// duplicates), read in the listing and by id, filtered by (?tag=, bulk filters), changed in bulk, and
// recorded in key events. Bad tags are 422s that write nothing; one project's tags never reach another's.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';

const t = useTestApp();

async function key(p: TestProject, body: Record<string, unknown>) {
  const res = await t.call(p.apiKey, 'POST', '/v1/keys', body);
  expect(res.status, JSON.stringify(body)).toBe(201);
  return res.json();
}
const list = async (p: TestProject, query = '') => (await (await t.call(p.apiKey, 'GET', `/v1/keys${query}`)).json()).keys as { key: string; tags: string[] }[];

describe('tags on keys', () => {
  it('are written on create, sorted and without duplicates, and read back in every key answer', async () => {
    const p = await t.newProject('team');
    const created = await key(p, { key: 'home.title', tags: ['release-2.3', ' mobile ', 'mobile', 'Web'] });
    expect(created.tags).toEqual(['Web', 'mobile', 'release-2.3']);
    expect((await key(p, { key: 'home.plain' })).tags).toEqual([]);
    const one = await (await t.call(p.apiKey, 'GET', `/v1/keys/${created.id}`)).json();
    expect(one.tags).toEqual(['Web', 'mobile', 'release-2.3']);
    expect((await list(p)).map((k) => [k.key, k.tags])).toEqual([
      ['home.plain', []],
      ['home.title', ['Web', 'mobile', 'release-2.3']],
    ]);
  });

  it('PATCH replaces the whole set; an empty list removes them; other fields stay', async () => {
    const p = await t.newProject('team');
    const created = await key(p, { key: 'a.b', group_name: 'a', description: 'kept', tags: ['x', 'y'] });
    const res = await t.call(p.apiKey, 'PATCH', `/v1/keys/${created.id}`, { tags: ['z', 'x'] });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: created.id, updated: true, group_name: 'a', tags: ['x', 'z'] });
    const after = await (await t.call(p.apiKey, 'GET', `/v1/keys/${created.id}`)).json();
    expect(after).toMatchObject({ description: 'kept', tags: ['x', 'z'] });
    expect((await (await t.call(p.apiKey, 'PATCH', `/v1/keys/${created.id}`, { tags: [] })).json()).tags).toEqual([]);
    // A group change alone leaves the tags.
    await t.call(p.apiKey, 'PATCH', `/v1/keys/${created.id}`, { tags: ['kept'] });
    expect((await (await t.call(p.apiKey, 'PATCH', `/v1/keys/${created.id}`, { group_name: 'other' })).json()).tags).toEqual(['kept']);
    const events = await t.runtime.deps.sql<{ before: { tags?: string[] }; after: { tags?: string[] } }[]>`
      select before, after from domain_events where project_id = ${p.projectId} and type in ('key.updated', 'key.tagged') order by id`;
    // Tags alone: a key.tagged (not content); a PATCH that changes nothing records nothing.
    expect(events[0]).toEqual({ before: { tags: ['x', 'y'] }, after: { key: 'a.b', tags: ['x', 'z'] } });
    const countBefore = events.length;
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${created.id}`, { tags: ['kept'], group_name: 'other' })).status).toBe(200);
    const [{ n }] = (await t.runtime.deps.sql<{ n: number }[]>`
      select count(*)::int as n from domain_events where project_id = ${p.projectId} and type in ('key.updated', 'key.tagged')`) as unknown as [{ n: number }];
    expect(n).toBe(countBefore);
    const [createdEvent] = await t.runtime.deps.sql<{ after: { tags: string[] } }[]>`
      select after from domain_events where project_id = ${p.projectId} and type = 'key.created'`;
    expect(createdEvent!.after.tags).toEqual(['x', 'y']);
  });

  it('refuses bad tags with a 422 naming the field, and writes nothing', async () => {
    const p = await t.newProject('team');
    const bad: [unknown, RegExp][] = [
      ['mobile', /list/],
      [[''], /empty/],
      [['   '], /empty/],
      [['a,b'], /comma/],
      [['tab\there'], /control/],
      [['x'.repeat(101)], /100/],
      [[7], /string/],
      [Array.from({ length: 21 }, (_, i) => `t${i}`), /20 tags/],
    ];
    for (const [tags, message] of bad) {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'k', tags });
      expect(res.status, JSON.stringify(tags)).toBe(422);
      expect(JSON.stringify(await res.json()), JSON.stringify(tags)).toMatch(message);
    }
    expect(await list(p)).toEqual([]);
    // 20 tags, and 21 given with a duplicate, are fine.
    const tags = Array.from({ length: 20 }, (_, i) => `t${i}`);
    expect((await key(p, { key: 'k', tags: [...tags, 't0'] })).tags).toHaveLength(20);
    const created = (await list(p))[0]!;
    const res = await t.call(p.apiKey, 'PATCH', `/v1/keys/${(created as unknown as { id: string }).id}`, { tags: [...tags, 'one-more'] });
    expect(res.status).toBe(422);
    expect((await list(p))[0]!.tags).toHaveLength(20);
  });

  it('filters the listing by tag (exact, case kept, in NFC), with the other filters', async () => {
    const p = await t.newProject('team');
    await key(p, { key: 'a.one', group_name: 'a', tags: ['mobile'] });
    await key(p, { key: 'a.two', group_name: 'a', tags: ['Mobile', 'web'] });
    await key(p, { key: 'b.three', group_name: 'b', tags: ['mobile', 'café'] });
    expect((await list(p, '?tag=mobile')).map((k) => k.key)).toEqual(['a.one', 'b.three']);
    expect((await list(p, '?tag=mobile&group=a')).map((k) => k.key)).toEqual(['a.one']);
    expect((await list(p, '?tag=Mobile')).map((k) => k.key)).toEqual(['a.two']);
    expect((await list(p, `?tag=${encodeURIComponent('cafe\u0301')}`)).map((k) => k.key)).toEqual(['b.three']);
    expect(await list(p, '?tag=nothing')).toEqual([]);
    expect(await list(p, '?tag=a,b')).toEqual([]);
    expect((await list(p, '?tag=mobile&limit=1')).map((k) => k.key)).toEqual(['a.one']);
    expect((await t.call(p.apiKey, 'GET', '/v1/keys?tag=a&tag=b')).status).toBe(422);
  });

  it('bulk-tags adds and removes over ids or a filter: one event per key changed, all or nothing', async () => {
    const p = await t.newProject('team');
    const one = await key(p, { key: 'a.one', group_name: 'a', tags: ['old'] });
    const two = await key(p, { key: 'a.two', group_name: 'a' });
    const three = await key(p, { key: 'b.three', group_name: 'b', tags: ['new'] });
    let res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-tags', { key_ids: [one.id, two.id, three.id], add: ['new'], remove: ['old'] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ project_id: p.projectId, changed: 2 });
    expect((await list(p)).map((k) => k.tags)).toEqual([['new'], ['new'], ['new']]);
    res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-tags', { filter: { group: 'a' }, remove: ['new'] });
    expect(await res.json()).toEqual({ project_id: p.projectId, changed: 2 });
    res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-tags', { filter: { tag: 'new' }, add: ['x'] });
    expect(await res.json()).toEqual({ project_id: p.projectId, changed: 1 });
    expect((await list(p)).map((k) => [k.key, k.tags])).toEqual([['a.one', []], ['a.two', []], ['b.three', ['new', 'x']]]);
    const events = await t.runtime.deps.sql<{ entity_id: string; before: unknown; after: unknown }[]>`
      select entity_id, before, after from domain_events where project_id = ${p.projectId} and type = 'key.tagged' order by id`;
    expect(events).toHaveLength(5);
    expect(events.at(-1)).toMatchObject({ entity_id: three.id, before: { tags: ['new'] }, after: { key: 'b.three', tags: ['new', 'x'] } });

    // Past 20 tags on any key: nothing changes.
    const many = Array.from({ length: 19 }, (_, i) => `t${i}`);
    res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-tags', { key_ids: [one.id, three.id], add: many });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toMatch(/b\.three/);
    expect((await list(p)).map((k) => k.tags)).toEqual([[], [], ['new', 'x']]);
    for (const body of [
      { key_ids: [one.id] },
      { key_ids: [one.id], add: [], remove: [] },
      { key_ids: [one.id], add: ['a'], remove: ['a'] },
      { key_ids: [one.id], filter: {}, add: ['a'] },
      { add: ['a'] },
      { filter: { tag: '' }, add: ['a'] },
      { key_ids: [one.id], add: ['a,b'] },
    ]) {
      expect((await t.call(p.apiKey, 'POST', '/v1/keys/bulk-tags', body)).status, JSON.stringify(body)).toBe(422);
    }
  });

  it('GET /v1/keys/tags lists the tags of live keys with their counts, in name order', async () => {
    const p = await t.newProject('team');
    expect(await (await t.call(p.apiKey, 'GET', '/v1/keys/tags')).json()).toEqual({ project_id: p.projectId, tags: [] });
    await key(p, { key: 'a', tags: ['web', 'mobile'] });
    await key(p, { key: 'b', tags: ['mobile'] });
    const gone = await key(p, { key: 'c', tags: ['old', 'mobile'] });
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${gone.id}`)).status).toBe(204);
    const other = await t.newProject('team');
    await key(other, { key: 'x', tags: ['theirs'] });
    expect((await (await t.call(p.apiKey, 'GET', '/v1/keys/tags')).json()).tags).toEqual([
      { name: 'mobile', keys: 2 },
      { name: 'web', keys: 1 },
    ]);
  });

  it('GET /v1/keys/tags is live: a strong ETag, 304 while nothing changed, every change seen by the next read', async () => {
    const p = await t.newProject('team');
    const a = await key(p, { key: 'a', tags: ['web'] });
    const tags = async (etag?: string) => {
      const res = await t.call(p.apiKey, 'GET', '/v1/keys/tags', undefined, etag ? { 'If-None-Match': etag } : {});
      return { status: res.status, etag: res.headers.get('etag'), cache: res.headers.get('cache-control'), body: res.status === 200 ? await res.json() : null };
    };
    const first = await tags();
    expect(first).toMatchObject({ status: 200, cache: 'private, no-cache', body: { project_id: p.projectId, tags: [{ name: 'web', keys: 1 }] } });
    expect(first.etag).toMatch(/^"[\w-]{22}"$/);
    expect(await tags(first.etag!)).toMatchObject({ status: 304, etag: first.etag });
    // Each change below is answered before the next read starts, and that read shows it.
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${a.id}`, { tags: ['web', 'ios'] })).status).toBe(200);
    const patched = await tags(first.etag!);
    expect(patched.status).toBe(200);
    expect(patched.body.tags).toEqual([{ name: 'ios', keys: 1 }, { name: 'web', keys: 1 }]);
    expect(patched.etag).not.toBe(first.etag);
    const b = await key(p, { key: 'b' });
    expect((await t.call(p.apiKey, 'POST', '/v1/keys/bulk-tags', { key_ids: [b.id], add: ['ios'] })).status).toBe(200);
    expect((await tags()).body.tags).toEqual([{ name: 'ios', keys: 2 }, { name: 'web', keys: 1 }]);
    expect((await t.call(p.apiKey, 'PATCH', '/v1/keys/tags/ios', { name: 'apple' })).status).toBe(200);
    expect((await tags()).body.tags).toEqual([{ name: 'apple', keys: 2 }, { name: 'web', keys: 1 }]);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${a.id}`)).status).toBe(204);
    expect((await tags()).body.tags).toEqual([{ name: 'apple', keys: 1 }]);
    expect((await t.admin('POST', `/projects/${p.projectId}/keys/${a.id}/restore`)).status).toBeLessThan(300);
    expect((await tags()).body.tags).toEqual([{ name: 'apple', keys: 2 }, { name: 'web', keys: 1 }]);
    expect((await t.call(p.apiKey, 'DELETE', '/v1/keys/tags/web')).status).toBe(200);
    const last = await tags();
    expect(last.body.tags).toEqual([{ name: 'apple', keys: 2 }]);
    expect(await tags(last.etag!)).toMatchObject({ status: 304 });
  });

  it("never reads or changes another project's keys", async () => {
    const a = await t.newProject('team');
    const b = await t.newProject('team');
    const theirs = await key(b, { key: 'secret', tags: ['shared'] });
    await key(a, { key: 'mine', tags: ['shared'] });
    expect((await list(a, '?tag=shared')).map((k) => k.key)).toEqual(['mine']);
    expect((await t.call(a.apiKey, 'POST', '/v1/keys/bulk-tags', { key_ids: [theirs.id], add: ['x'] })).status).toBe(404);
    expect((await t.call(a.apiKey, 'PATCH', `/v1/keys/${theirs.id}`, { tags: ['x'] })).status).toBe(404);
    expect((await (await t.call(a.apiKey, 'POST', '/v1/keys/bulk-tags', { filter: { tag: 'shared' }, add: ['x'] })).json()).changed).toBe(1);
    expect((await list(b)).map((k) => k.tags)).toEqual([['shared']]);
  });
});
