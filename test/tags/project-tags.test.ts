// A tag across the whole project: PATCH /v1/keys/tags/{tag} renames it on every key that has it
// (a key with both names keeps one), DELETE takes it off every key; keys in the trash follow, so a
// restore does not bring the old name back. One key.tagged per key changed; another project's tag
// of the same name is never touched; a tag no live key has is a 404, a bad new name a 422.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}
const key = async (p: TestProject, name: string, tags: string[]) => (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: name, tags }))).id as string;
const tagsOf = async (p: TestProject) =>
  Object.fromEntries(
    (await sql()<{ key: string; tags: string[] }[]>`select key, tags from translation_keys where project_id = ${p.projectId} order by key`).map((r) => [r.key, r.tags]),
  );
const path = (tag: string) => `/v1/keys/tags/${encodeURIComponent(tag)}`;

describe('renaming a tag', () => {
  it('renames it on every key, merges it where the key has the new name already, and answers the live keys changed', async () => {
    const p = await t.newProject('team');
    await key(p, 'a', ['mobil', 'web']);
    await key(p, 'b', ['mobil', 'mobile']);
    await key(p, 'c', ['web']);
    const since = (await sql()<{ max: string }[]>`select coalesce(max(id), 0)::text as max from domain_events`)[0]!.max;
    const res = await t.call(p.apiKey, 'PATCH', path('mobil'), { name: 'mobile' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ project_id: p.projectId, from: 'mobil', to: 'mobile', changed: 2 });
    expect(await tagsOf(p)).toEqual({ a: ['mobile', 'web'], b: ['mobile'], c: ['web'] });
    expect((await json(await t.call(p.apiKey, 'GET', '/v1/keys/tags'))).tags).toEqual([
      { name: 'mobile', keys: 2 },
      { name: 'web', keys: 2 },
    ]);
    const events = await sql()<{ type: string; before: { tags: string[] }; after: { key: string; tags: string[] } }[]>`
      select type, before, after from domain_events where project_id = ${p.projectId} and id > ${since}::bigint order by after->>'key'`;
    expect(events.map((e) => [e.type, e.after.key, e.before.tags, e.after.tags])).toEqual([
      ['key.tagged', 'a', ['mobil', 'web'], ['mobile', 'web']],
      ['key.tagged', 'b', ['mobil', 'mobile'], ['mobile']],
    ]);
  });

  it('renames keys in the trash too, so that a restored key has the new name', async () => {
    const p = await t.newProject('team');
    await key(p, 'live', ['beta']);
    const trashed = await key(p, 'trashed', ['beta']);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${trashed}`)).status).toBe(204);
    expect((await json(await t.call(p.apiKey, 'PATCH', path('beta'), { name: 'release-3' }))).changed).toBe(1);
    expect((await t.admin('POST', `/projects/${p.projectId}/keys/${trashed}/restore`)).status).toBe(200);
    expect(await tagsOf(p)).toEqual({ live: ['release-3'], trashed: ['release-3'] });
  });

  it('takes a tag written in any script, percent-encoded in the path, trimmed and in NFC as tags are', async () => {
    const p = await t.newProject('team');
    await key(p, 'k', ['iOS/iPadOS', 'Café']);
    expect((await json(await t.call(p.apiKey, 'PATCH', path('iOS/iPadOS'), { name: 'apple' }))).from).toBe('iOS/iPadOS');
    // "Café" with a combining accent names the stored NFC tag.
    expect((await json(await t.call(p.apiKey, 'PATCH', path(' Cafe\u0301 '), { name: 'Kaffee' }))).from).toBe('Café');
    expect(await tagsOf(p)).toEqual({ k: ['Kaffee', 'apple'] });
  });

  it('is a 404 for a tag no live key has (a retry after success, one only in the trash, one that could never be a tag), writing nothing', async () => {
    const p = await t.newProject('team');
    await key(p, 'k', ['web']);
    const gone = await key(p, 'gone', ['old']);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${gone}`)).status).toBe(204);
    for (const tag of ['nope', 'old', 'a,b', 'x'.repeat(101)]) {
      const res = await t.call(p.apiKey, 'PATCH', path(tag), { name: 'new' });
      expect(res.status, tag).toBe(404);
      expect((await res.json()).detail).toMatch(/has the tag/);
      expect((await t.call(p.apiKey, 'DELETE', path(tag))).status, tag).toBe(404);
    }
    expect(await tagsOf(p)).toEqual({ gone: ['old'], k: ['web'] });
  });

  it('refuses a bad new name, or the same one, with a 422 naming the field', async () => {
    const p = await t.newProject('team');
    await key(p, 'k', ['web']);
    for (const name of ['', 'a,b', 'x'.repeat(101), 'tab\there', 'web', ' web ']) {
      const res = await t.call(p.apiKey, 'PATCH', path('web'), { name });
      expect(res.status, JSON.stringify(name)).toBe(422);
      expect((await res.json()).detail[0].loc, JSON.stringify(name)).toEqual(['body', 'name']);
    }
    expect((await t.call(p.apiKey, 'PATCH', path('web'), { name: 'x', extra: 1 })).status).toBe(422);
    expect((await t.call(p.apiKey, 'PATCH', path('web'), {})).status).toBe(422);
    expect(await tagsOf(p)).toEqual({ k: ['web'] });
  });
});

describe('deleting a tag', () => {
  it("takes it off every key of the project, trash included, and never another project's tag of the same name", async () => {
    const p = await t.newProject('team');
    const q = await t.newProject('team');
    await key(p, 'a', ['old', 'web']);
    await key(p, 'b', ['old']);
    const trashed = await key(p, 'c', ['old']);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${trashed}`)).status).toBe(204);
    await key(q, 'a', ['old']);
    const res = await t.call(p.apiKey, 'DELETE', path('old'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ project_id: p.projectId, tag: 'old', changed: 2 });
    expect(await tagsOf(p)).toEqual({ a: ['web'], b: [], c: [] });
    expect(await tagsOf(q)).toEqual({ a: ['old'] });
    // Another project's key cannot rename this one's tags either.
    expect((await t.call(q.apiKey, 'PATCH', path('web'), { name: 'mine' })).status).toBe(404);
    expect(await tagsOf(p)).toEqual({ a: ['web'], b: [], c: [] });
  });

  it('changes nothing served: no rebuild is queued, the keys and values stay', async () => {
    const p = await t.newProject('team');
    await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' }));
    const id = await key(p, 'k', ['web']);
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'Hallo', status: 'approved' }));
    const before = await json(await t.call(p.apiKey, 'GET', '/v1/translations/de'));
    expect((await t.call(p.apiKey, 'DELETE', path('web'))).status).toBe(200);
    expect(await json(await t.call(p.apiKey, 'GET', '/v1/translations/de'))).toEqual(before);
    const types = await sql()<{ type: string }[]>`select type from domain_events where project_id = ${p.projectId} order by id desc limit 1`;
    expect(types.map((e) => e.type)).toEqual(['key.tagged']);
  });
});
