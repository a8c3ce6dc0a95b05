// The three live reads: body shapes for every status filter, query validation, ordering, paths.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, project, type Project } from './helpers.ts';

const t = useTestApp();

let p: Project;
beforeAll(async () => {
  p = await project(t, ['de', 'fr']);
  const title = await p.key('home.title', 'home');
  const subtitle = await p.key('home.subtitle', 'home');
  const bodyKey = await p.key('home.body', 'home');
  const back = await p.key('nav.back', 'nav');
  await p.key('nav.untranslated', 'nav');
  await p.put(title, 'de', 'Willkommen', 'approved');
  await p.put(subtitle, 'de', 'Untertitel', 'draft');
  await p.put(bodyKey, 'de', 'Inhalt', 'review');
  await p.put(back, 'de', 'Zurück', 'approved');
  await p.put(title, 'fr', 'Bienvenue', 'draft');
});

describe('GET /v1/translations/{language}', () => {
  it('serves approved values as plain strings by default', async () => {
    const res = await p.get('/v1/translations/de');
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({
      project_id: p.projectId,
      language: 'de',
      status_filter: 'approved',
      count: 2,
      translations: { 'home.title': 'Willkommen', 'nav.back': 'Zurück' },
    });
    expect(await body(await p.get('/v1/translations/de?status=approved'))).toEqual(await body(await p.get('/v1/translations/de')));
  });

  it('filters by draft and by review', async () => {
    const draft = await body(await p.get('/v1/translations/de?status=draft'));
    expect(draft).toMatchObject({ status_filter: 'draft', count: 1, translations: { 'home.subtitle': 'Untertitel' } });
    expect(Object.keys(draft.translations)).toEqual(['home.subtitle']);
    const review = await body(await p.get('/v1/translations/de?status=review'));
    expect(review).toMatchObject({ status_filter: 'review', count: 1 });
    expect(review.translations).toEqual({ 'home.body': 'Inhalt' });
  });

  it('serves {value, status, group} for every status with status=all', async () => {
    const all = await body(await p.get('/v1/translations/de?status=all'));
    expect(all).toEqual({
      project_id: p.projectId,
      language: 'de',
      status_filter: 'all',
      count: 4,
      translations: {
        'home.body': { value: 'Inhalt', status: 'review', group: 'home' },
        'home.subtitle': { value: 'Untertitel', status: 'draft', group: 'home' },
        'home.title': { value: 'Willkommen', status: 'approved', group: 'home' },
        'nav.back': { value: 'Zurück', status: 'approved', group: 'nav' },
      },
    });
  });

  it('answers 200 with count 0 when the language has values but none match the filter', async () => {
    const res = await p.get('/v1/translations/fr');
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ project_id: p.projectId, language: 'fr', status_filter: 'approved', count: 0, translations: {} });
    expect((await body(await p.get('/v1/translations/fr?status=review'))).count).toBe(0);
    expect((await body(await p.get('/v1/translations/fr?status=draft'))).translations).toEqual({ 'home.title': 'Bienvenue' });
  });

  it('canonicalizes the language and refuses an invalid code with 422', async () => {
    expect((await body(await p.get('/v1/translations/DE'))).language).toBe('de');
    const res = await p.get('/v1/translations/german');
    expect(res.status).toBe(422);
    expect((await body(res)).detail[0].loc).toEqual(['path', 'language']);
  });
});

describe('GET /v1/translations/{language}/{group}', () => {
  it('serves the group as plain strings, filtered by status', async () => {
    expect(await body(await p.get('/v1/translations/de/home'))).toEqual({
      project_id: p.projectId,
      language: 'de',
      group: 'home',
      status_filter: 'approved',
      count: 1,
      translations: { 'home.title': 'Willkommen' },
    });
    expect((await body(await p.get('/v1/translations/de/home?status=draft'))).translations).toEqual({ 'home.subtitle': 'Untertitel' });
    expect((await body(await p.get('/v1/translations/de/home?status=review'))).translations).toEqual({ 'home.body': 'Inhalt' });
    expect((await body(await p.get('/v1/translations/de/nav'))).translations).toEqual({ 'nav.back': 'Zurück' });
  });

  it('serves {value, status} entries with status=all', async () => {
    expect(await body(await p.get('/v1/translations/de/home?status=all'))).toEqual({
      project_id: p.projectId,
      language: 'de',
      group: 'home',
      status_filter: 'all',
      count: 3,
      translations: {
        'home.body': { value: 'Inhalt', status: 'review' },
        'home.subtitle': { value: 'Untertitel', status: 'draft' },
        'home.title': { value: 'Willkommen', status: 'approved' },
      },
    });
  });
});

describe('GET /v1/translations/{language}/{group}/{key}', () => {
  it('serves one value with its status', async () => {
    expect(await body(await p.get('/v1/translations/de/home/home.title'))).toEqual({
      key: 'home.title',
      group: 'home',
      language: 'de',
      value: 'Willkommen',
      status: 'approved',
    });
    expect(await body(await p.get('/v1/translations/de/home/home.subtitle?status=draft'))).toMatchObject({ value: 'Untertitel', status: 'draft' });
    expect(await body(await p.get('/v1/translations/de/home/home.body?status=all'))).toMatchObject({ value: 'Inhalt', status: 'review' });
    expect(await body(await p.get('/v1/translations/fr/home/home.title?status=all'))).toEqual({
      key: 'home.title',
      group: 'home',
      language: 'fr',
      value: 'Bienvenue',
      status: 'draft',
    });
  });
});

describe('?status validation', () => {
  const paths = ['/v1/translations/de', '/v1/translations/de/home', '/v1/translations/de/home/home.title'];
  it.each(paths)('%s refuses anything but approved, draft, review or all with 422', async (path) => {
    for (const query of ['status=published', 'status=APPROVED', 'status=', 'status=approved&status=draft', 'status=all%20']) {
      const res = await p.get(`${path}?${query}`);
      expect(res.status, query).toBe(422);
      const { detail } = await body(res);
      expect(detail[0].loc).toEqual(['query', 'status']);
    }
  });
  it.each(paths)('%s ignores unknown query parameters', async (path) => {
    expect((await p.get(`${path}?v=123&status=all`)).status).toBe(200);
  });
});

describe('ordering and unusual key names', () => {
  it('orders translations by key name in code-point order, whatever the database collation', async () => {
    const q = await project(t, ['de']);
    const names = ['b', 'a', 'B', 'ä', 'A.z', 'a-b', 'a_b', '10', '9', 'Z'];
    for (const name of names) await q.put(await q.key(name, 'g'), 'de', `v-${name}`, 'approved');
    // Code-point order in the raw body (UTF-16 order is the same for these names), integer-like
    // names included: the body is not built from a JavaScript object, which would list them first.
    const expected = [...names].sort();
    const text = await (await q.get('/v1/translations/de')).text();
    const order = [...text.matchAll(/"([^"]+)":"v-/g)].map((m) => m[1]);
    expect(order).toEqual(expected);
    const groupText = await (await q.get('/v1/translations/de/g?status=all')).text();
    expect([...groupText.matchAll(/"([^"]+)":\{"value"/g)].map((m) => m[1])).toEqual(expected);
  });

  it('serves keys named like Object.prototype members', async () => {
    const q = await project(t, ['de']);
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      await q.put(await q.key(name, 'proto'), 'de', `value of ${name}`, 'approved');
    }
    const text = await (await q.get('/v1/translations/de')).text();
    expect(text).toContain('"__proto__":"value of __proto__"');
    const language = JSON.parse(text);
    expect(language.count).toBe(4);
    expect(Object.getOwnPropertyDescriptor(language.translations, '__proto__')?.value).toBe('value of __proto__');
    expect(language.translations.constructor).toBe('value of constructor');
    const group = JSON.parse(await (await q.get('/v1/translations/de/proto?status=all')).text());
    expect(Object.getOwnPropertyDescriptor(group.translations, '__proto__')?.value).toEqual({ value: 'value of __proto__', status: 'approved' });
    expect(Object.keys(group.translations)).toHaveLength(4);
    expect((await body(await q.get('/v1/translations/de/proto/__proto__'))).value).toBe('value of __proto__');
  });

  it('reads keys and groups whose names need percent-encoding in the path', async () => {
    const q = await project(t, ['de']);
    const cases: [string, string][] = [
      ['settings/profile.title', 'settings'], // '/' must be sent as %2F
      ['discount.100%', 'shop'],
      ['discount.%41', 'shop'], // must not be decoded twice into "A"
      ['with spaces and  two', 'Über uns'],
      ['question?.mark', 'punct'],
      ['hash#tag', 'punct'],
      ['plus+sign', 'punct'],
      ['amp&eq=', 'punct'],
      ['ключ.заголовок', 'Группа'],
      ['キー.タイトル', '日本語'],
      ['emoji.👋', 'emoji'],
      ['dots...', 'g.with.dots'],
      ['colon:semi;comma,', 'punct'],
      ["quote'\"backtick`", 'punct'],
      ['back\\slash', 'punct'],
    ];
    for (const [key, group] of cases) await q.put(await q.key(key, group), 'de', `value of ${key}`, 'approved');
    for (const [key, group] of cases) {
      const res = await q.get(`/v1/translations/de/${encodeURIComponent(group)}/${encodeURIComponent(key)}`);
      expect(res.status, key).toBe(200);
      expect(await body(res), key).toEqual({ key, group, language: 'de', value: `value of ${key}`, status: 'approved' });
      const groupRes = await q.get(`/v1/translations/de/${encodeURIComponent(group)}`);
      expect((await body(groupRes)).translations[key], key).toBe(`value of ${key}`);
    }
    // Without encoding, a '/' in the key adds a path segment: that route does not exist.
    expect((await q.get('/v1/translations/de/settings/settings/profile.title')).status).toBe(404);
  });
});
