// GET /v1/keys's search, filters, cursor pages and strict query; GET /v1/keys/{key_id}.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';

const t = useTestApp();

type Item = { id: string; key: string; group_name: string; description: string | null; created_at: string; updated_at: string };
type List = { project_id: string; keys: Item[]; count: number; next_cursor?: string | null };

const list = async (p: TestProject, query = ''): Promise<{ status: number; body: List & { detail?: unknown } }> => {
  const res = await t.call(p.apiKey, 'GET', `/v1/keys${query}`);
  return { status: res.status, body: await res.json() };
};
const names = (l: List) => l.keys.map((k) => k.key);

/** A project with keys in two groups and values in de and fr of every status. */
async function seeded() {
  const p = await t.newProject('team');
  for (const code of ['de', 'fr']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  const ids: Record<string, string> = {};
  const make = async (key: string, group_name: string) => {
    const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name });
    expect(res.status).toBe(201);
    ids[key] = (await res.json()).id;
  };
  const put = async (key: string, lang: string, value: string, status: string) =>
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${ids[key]}/translations/${lang}`, { value, status })).status).toBe(200);
  await make('home.title', 'home');
  await make('home.subtitle', 'home');
  await make('login.button', 'auth');
  await make('login.error_50%', 'auth');
  await put('home.title', 'de', 'Willkommen ZUHAUSE', 'approved');
  await put('home.title', 'fr', 'Bienvenue', 'review');
  await put('home.subtitle', 'de', 'Untertitel', 'draft');
  await put('login.button', 'fr', 'Se connecter', 'approved');
  return { p, ids };
}

describe('GET /v1/keys: search and filters', () => {
  it('search matches key names and value text, case-insensitively; % and _ are plain characters', async () => {
    const { p } = await seeded();
    expect(names((await list(p, '?search=TITLE')).body)).toEqual(['home.subtitle', 'home.title']);
    expect(names((await list(p, '?search=zuhause')).body)).toEqual(['home.title']); // a value, in de
    expect(names((await list(p, '?search=connecter')).body)).toEqual(['login.button']); // a value, in fr
    expect(names((await list(p, '?search=50%25')).body)).toEqual(['login.error_50%']);
    expect(names((await list(p, '?search=n_b')).body)).toEqual([]); // _ is not a wildcard
    expect(names((await list(p, '?search=')).body)).toHaveLength(4); // blank: no search
    const none = await list(p, '?search=nothing-like-this');
    expect(none.body).toEqual({ project_id: p.projectId, keys: [], count: 0 });
  });

  it('group, status, language and missing filter, combined with AND', async () => {
    const { p } = await seeded();
    expect(names((await list(p, '?group=auth')).body)).toEqual(['login.button', 'login.error_50%']);
    expect(names((await list(p, '?status=approved')).body)).toEqual(['home.title', 'login.button']);
    expect(names((await list(p, '?status=approved&language=de')).body)).toEqual(['home.title']);
    expect(names((await list(p, '?status=review&language=de')).body)).toEqual([]);
    expect(names((await list(p, '?language=fr')).body)).toEqual(['home.title', 'login.button']);
    expect(names((await list(p, '?missing=fr')).body)).toEqual(['home.subtitle', 'login.error_50%']);
    expect(names((await list(p, '?missing=de&group=auth')).body)).toEqual(['login.button', 'login.error_50%']);
    expect(names((await list(p, '?missing=DE&search=button')).body)).toEqual(['login.button']); // codes are canonicalized
    expect(names((await list(p, '?group=has/slash')).body)).toEqual([]); // could never be a group
    // A language the project does not have: no key has a value in it.
    expect(names((await list(p, '?missing=ja')).body)).toHaveLength(4);
  });

  it('refuses an unknown query parameter (a misspelt filter) and invalid values with 422 naming them', async () => {
    const { p } = await seeded();
    const typo = await list(p, '?serach=title');
    expect(typo.status).toBe(422);
    expect(typo.body.detail).toEqual([{ loc: ['query', 'serach'], msg: "Unknown field 'serach'", type: 'extra_forbidden' }]);
    for (const [query, field] of [
      ['?status=done', 'status'],
      ['?missing=not-a-language', 'missing'],
      ['?language=123', 'language'],
      ['?limit=0', 'limit'],
      ['?limit=501', 'limit'],
      ['?limit=ten', 'limit'],
      ['?limit=1.5', 'limit'],
      ['?limit=1&limit=2', 'limit'],
      ['?cursor=not-a-cursor!', 'cursor'],
      [`?cursor=${Buffer.from('["a","not-a-uuid"]').toString('base64url')}`, 'cursor'],
      [`?cursor=${Buffer.from('{').toString('base64url')}`, 'cursor'],
      [`?search=${'x'.repeat(201)}`, 'search'],
      ['?group=a&group=b', 'group'],
    ] as const) {
      const res = await list(p, query);
      expect(res.status, query).toBe(422);
      expect((res.body.detail as { loc: string[] }[])[0]!.loc, query).toEqual(['query', field]);
    }
  });
});

describe('GET /v1/keys: cursor pages', () => {
  it('without limit or cursor answers the whole list as before; with them, pages that walk every key once', async () => {
    const p = await t.newProject('team');
    const rows = Array.from({ length: 23 }, (_, i) => ({ project_id: p.projectId, key: `k.${String(i).padStart(2, '0')}`, group_name: i % 2 ? 'odd' : 'even' }));
    await t.runtime.deps.sql`insert into translation_keys ${t.runtime.deps.sql(rows)}`;
    const whole = (await list(p)).body;
    expect(whole.count).toBe(23);
    expect('next_cursor' in whole).toBe(false);

    const seen: string[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const { status, body } = await list(p, `?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(status).toBe(200);
      expect(body.count).toBe(body.keys.length);
      expect(body.keys.length).toBeLessThanOrEqual(5);
      seen.push(...names(body));
      cursor = body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toEqual(names(whole));

    // Filters apply to pages; a cursor alone pages with the default size.
    const odd = (await list(p, '?group=odd&limit=10')).body;
    expect(names(odd)).toEqual(rows.filter((r) => r.group_name === 'odd').slice(0, 10).map((r) => r.key));
    const rest = (await list(p, `?group=odd&cursor=${odd.next_cursor}`)).body;
    expect(names(rest)).toEqual(['k.21']);
    expect(rest.next_cursor).toBeNull();
    // An exact last page says so.
    expect((await list(p, '?limit=23')).body.next_cursor).toBeNull();
  });

  it('keys created or deleted between pages do not shift the pages after them', async () => {
    const p = await t.newProject('team');
    for (const key of ['a', 'c', 'e', 'g']) await t.call(p.apiKey, 'POST', '/v1/keys', { key });
    const first = (await list(p, '?limit=2')).body;
    expect(names(first)).toEqual(['a', 'c']);
    await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'b' }); // before the cursor: not seen, not shifting
    await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'd' }); // after: seen
    const second = (await list(p, `?limit=2&cursor=${first.next_cursor}`)).body;
    expect(names(second)).toEqual(['d', 'e']);
  });
});

describe('GET /v1/keys/{key_id}', () => {
  it('answers one key in the shape of a listing item; 404 for unknown, deleted or another project; 422 for a malformed id', async () => {
    const { p, ids } = await seeded();
    const res = await t.call(p.apiKey, 'GET', `/v1/keys/${ids['home.title']}`);
    expect(res.status).toBe(200);
    const item = await res.json();
    const fromList = (await list(p, '?search=home.title')).body.keys[0];
    expect(item).toEqual(fromList);
    expect(Object.keys(item).sort()).toEqual(['created_at', 'description', 'group_name', 'id', 'key', 'max_length', 'tags', 'updated_at']);

    expect((await t.call(p.apiKey, 'GET', `/v1/keys/${ids['home.title']!.toUpperCase()}`)).status).toBe(200);
    const unknown = await t.call(p.apiKey, 'GET', `/v1/keys/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: 'Key not found' });
    const bad = await t.call(p.apiKey, 'GET', '/v1/keys/not-a-uuid');
    expect(bad.status).toBe(422);
    expect((await bad.json()).detail[0].loc).toEqual(['path', 'key_id']);

    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${ids['home.title']}`)).status).toBe(204);
    expect((await t.call(p.apiKey, 'GET', `/v1/keys/${ids['home.title']}`)).status).toBe(404);
  });
});

describe('tenant isolation', () => {
  it("another project's keys never appear in search, filters, pages or GET by id", async () => {
    const { p, ids } = await seeded();
    const other = await t.newProject('team');
    await t.call(other.apiKey, 'POST', '/v1/languages', { code: 'de' });
    const mine = await (await t.call(other.apiKey, 'POST', '/v1/keys', { key: 'home.other' })).json();
    await t.call(other.apiKey, 'PUT', `/v1/keys/${mine.id}/translations/de`, { value: 'Willkommen zuhause', status: 'approved' });

    expect(names((await list(other, '?search=zuhause')).body)).toEqual(['home.other']);
    expect(names((await list(other, '?search=home')).body)).toEqual(['home.other']);
    expect(names((await list(other, '?status=approved&language=de')).body)).toEqual(['home.other']);
    expect(names((await list(other, '?missing=fr')).body)).toEqual(['home.other']);
    expect(names((await list(other, '?limit=500')).body)).toEqual(['home.other']);
    expect(names((await list(p, '?search=zuhause')).body)).toEqual(['home.title']);
    for (const id of Object.values(ids)) expect((await t.call(other.apiKey, 'GET', `/v1/keys/${id}`)).status).toBe(404);
  });
});
