// 404s of the live reads and their detail text; deleted keys, deleted languages, group renames and
// group deletes reflected on the very next read.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, expectNotFound, project } from './helpers.ts';

const t = useTestApp();

describe('404s and their detail', () => {
  it('language read: 404 only when the language has no live values at all', async () => {
    const p = await project(t, ['de', 'fr', 'it']);
    const k = await p.key('home.title', 'home');
    await p.put(k, 'de', 'Titel', 'draft');
    // Registered, but no values at all.
    expect(await expectNotFound(await p.get('/v1/translations/fr'))).toBe("Language 'fr' has no translations in this project");
    expect((await p.get('/v1/translations/fr?status=all')).status).toBe(404);
    // Not registered.
    expect(await expectNotFound(await p.get('/v1/translations/es?status=draft'))).toBe("Language 'es' has no translations in this project");
    // Only a draft: 200 for approved, with nothing in it.
    expect(await body(await p.get('/v1/translations/de'))).toMatchObject({ count: 0, translations: {} });
    // Only values of a soft-deleted key: as if there were none.
    const gone = await p.key('gone.one', 'gone');
    await p.put(gone, 'it', 'via', 'approved');
    expect((await p.get('/v1/translations/it')).status).toBe(200);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${gone}`)).status).toBe(204);
    for (const status of ['approved', 'draft', 'review', 'all']) {
      expect((await p.get(`/v1/translations/it?status=${status}`)).status, status).toBe(404);
    }
  });

  it('group read: 404 when nothing matches group, language and filter', async () => {
    const p = await project(t, ['de', 'fr']);
    const k = await p.key('home.title', 'home');
    await p.put(k, 'de', 'Titel', 'draft');
    await p.key('empty.key', 'empty');
    expect(await expectNotFound(await p.get('/v1/translations/de/home'))).toBe("No approved translations for group 'home' in language 'de'");
    expect(await expectNotFound(await p.get('/v1/translations/de/home?status=review'))).toBe("No review translations for group 'home' in language 'de'");
    expect((await p.get('/v1/translations/de/home?status=draft')).status).toBe(200);
    expect(await expectNotFound(await p.get('/v1/translations/de/nowhere?status=all'))).toBe("No translations for group 'nowhere' in language 'de'");
    expect(await expectNotFound(await p.get('/v1/translations/de/empty?status=all'))).toContain("'empty'");
    expect(await expectNotFound(await p.get('/v1/translations/fr/home?status=all'))).toBe("No translations for group 'home' in language 'fr'");
    expect(await expectNotFound(await p.get('/v1/translations/es/home?status=all'))).toContain("'es'");
    // Group names are case-sensitive.
    expect((await p.get('/v1/translations/de/Home?status=all')).status).toBe(404);
  });

  it('a group name that could never be valid is a 404, not a 422', async () => {
    const p = await project(t, ['de']);
    for (const group of ['a$b', 'x'.repeat(201), ' lead', 'semi;colon', 'a\u0000b', 'tab\there']) {
      const res = await p.get(`/v1/translations/de/${encodeURIComponent(group)}`);
      expect(res.status, group).toBe(404);
      expect(typeof (await body(res)).detail).toBe('string');
      expect((await p.get(`/v1/translations/de/${encodeURIComponent(group)}/k`)).status, group).toBe(404);
    }
  });

  it('key read: 404 naming key, group and language whatever is missing', async () => {
    const p = await project(t, ['de', 'fr']);
    const title = await p.key('home.title', 'home');
    await p.key('home.untranslated', 'home');
    await p.key('nav.title', 'nav');
    await p.put(title, 'de', 'Titel', 'draft');
    const cases: [string, string][] = [
      ['/v1/translations/de/home/home.title', "No approved translation for key 'home.title' in group 'home' and language 'de'"], // draft asked as approved
      ['/v1/translations/de/home/home.title?status=review', "No review translation for key 'home.title' in group 'home' and language 'de'"],
      ['/v1/translations/de/home/home.missing?status=all', "No translation for key 'home.missing' in group 'home' and language 'de'"],
      ['/v1/translations/de/home/home.untranslated?status=all', "No translation for key 'home.untranslated' in group 'home' and language 'de'"],
      ['/v1/translations/de/nav/home.title?status=all', "No translation for key 'home.title' in group 'nav' and language 'de'"], // wrong group
      ['/v1/translations/de/nowhere/home.title?status=all', "No translation for key 'home.title' in group 'nowhere' and language 'de'"],
      ['/v1/translations/fr/home/home.title?status=all', "No translation for key 'home.title' in group 'home' and language 'fr'"],
      ['/v1/translations/es/home/home.title?status=all', "No translation for key 'home.title' in group 'home' and language 'es'"], // unregistered
      ['/v1/translations/de/home/title?status=all', "No translation for key 'title' in group 'home' and language 'de'"], // short name
      ['/v1/translations/DE/home/home.missing', "No approved translation for key 'home.missing' in group 'home' and language 'de'"],
    ];
    for (const [path, detail] of cases) expect(await expectNotFound(await p.get(path)), path).toBe(detail);
    expect((await p.get('/v1/translations/de/home/home.title?status=draft')).status).toBe(200);
    // Names that could never be keys are a 404 too, never a database error.
    for (const key of ['a\u0000b', 'ctl\u0001', 'x'.repeat(501)]) {
      expect(await expectNotFound(await p.get(`/v1/translations/de/home/${encodeURIComponent(key)}?status=all`))).toContain("group 'home'");
    }
  });
});

describe('deleted keys and languages are never served', () => {
  it('a soft-deleted key disappears from all three reads at once', async () => {
    const p = await project(t, ['de']);
    const keep = await p.key('home.keep', 'home');
    const drop = await p.key('home.drop', 'home');
    await p.put(keep, 'de', 'bleibt', 'approved');
    await p.put(drop, 'de', 'geht', 'approved');
    expect((await body(await p.get('/v1/translations/de'))).count).toBe(2);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${drop}`)).status).toBe(204);
    for (const status of ['approved', 'all']) {
      const language = await body(await p.get(`/v1/translations/de?status=${status}`));
      expect(language.count).toBe(1);
      expect(Object.keys(language.translations)).toEqual(['home.keep']);
      const group = await body(await p.get(`/v1/translations/de/home?status=${status}`));
      expect(Object.keys(group.translations)).toEqual(['home.keep']);
      expect((await p.get(`/v1/translations/de/home/home.drop?status=${status}`)).status).toBe(404);
    }
    // A new key may take the deleted key's name; only the new value is served.
    const again = await p.key('home.drop', 'home');
    await p.put(again, 'de', 'neu', 'approved');
    expect((await body(await p.get('/v1/translations/de/home/home.drop'))).value).toBe('neu');
    expect((await body(await p.get('/v1/translations/de'))).count).toBe(2);
  });

  it('a key restored by the admin API is served again with its values', async () => {
    const p = await project(t, ['de']);
    const k = await p.key('home.back', 'home');
    await p.put(k, 'de', 'zurück', 'approved');
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${k}`)).status).toBe(204);
    expect((await p.get('/v1/translations/de')).status).toBe(404);
    expect((await t.admin('POST', `/projects/${p.projectId}/keys/${k}/restore`)).status).toBe(200);
    expect((await body(await p.get('/v1/translations/de/home/home.back'))).value).toBe('zurück');
  });

  it('a removed language is not served, not even after it is registered again', async () => {
    const p = await project(t, ['de', 'fr']);
    const k = await p.key('home.title', 'home');
    await p.put(k, 'de', 'Titel', 'approved');
    await p.put(k, 'fr', 'Titre', 'approved');
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/fr')).status).toBe(200);
    for (const path of ['/v1/translations/fr', '/v1/translations/fr/home', '/v1/translations/fr/home/home.title']) {
      expect((await p.get(`${path}?status=all`)).status, path).toBe(404);
    }
    await p.language('fr');
    expect((await p.get('/v1/translations/fr?status=all')).status).toBe(404);
    expect((await p.get('/v1/translations/fr/home/home.title?status=all')).status).toBe(404);
    // The other language is untouched.
    expect((await body(await p.get('/v1/translations/de/home/home.title'))).value).toBe('Titel');
  });
});

describe('group changes are reflected at once', () => {
  it('a group rename moves every value to the new group name', async () => {
    const p = await project(t, ['de']);
    const a = await p.key('home.a', 'home');
    const b = await p.key('home.b', 'home');
    await p.put(a, 'de', 'A', 'approved');
    await p.put(b, 'de', 'B', 'draft');
    expect((await body(await p.get('/v1/translations/de/home'))).count).toBe(1);
    const renamed = await t.call(p.apiKey, 'PATCH', '/v1/groups/home', { new_name: 'start' });
    expect(renamed.status).toBe(200);
    expect((await p.get('/v1/translations/de/home?status=all')).status).toBe(404);
    expect((await p.get('/v1/translations/de/home/home.a')).status).toBe(404);
    expect(await body(await p.get('/v1/translations/de/start?status=all'))).toMatchObject({
      group: 'start',
      count: 2,
      translations: { 'home.a': { value: 'A', status: 'approved' }, 'home.b': { value: 'B', status: 'draft' } },
    });
    expect(await body(await p.get('/v1/translations/de/start/home.a'))).toMatchObject({ group: 'start', value: 'A' });
    expect((await body(await p.get('/v1/translations/de?status=all'))).translations['home.b'].group).toBe('start');
  });

  it('moving one key to another group moves its value', async () => {
    const p = await project(t, ['de']);
    const k = await p.key('home.a', 'home');
    await p.put(k, 'de', 'A', 'approved');
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${k}`, { group_name: 'other' })).status).toBe(200);
    expect((await p.get('/v1/translations/de/home')).status).toBe(404);
    expect((await body(await p.get('/v1/translations/de/other/home.a'))).value).toBe('A');
  });

  it('a group delete removes its values from every read', async () => {
    const p = await project(t, ['de']);
    const a = await p.key('home.a', 'home');
    const n = await p.key('nav.a', 'nav');
    await p.put(a, 'de', 'A', 'approved');
    await p.put(n, 'de', 'N', 'approved');
    expect((await t.call(p.apiKey, 'DELETE', '/v1/groups/home')).status).toBe(204);
    expect((await p.get('/v1/translations/de/home?status=all')).status).toBe(404);
    expect((await p.get('/v1/translations/de/home/home.a?status=all')).status).toBe(404);
    expect((await body(await p.get('/v1/translations/de?status=all'))).translations).toEqual({ 'nav.a': { value: 'N', status: 'approved', group: 'nav' } });
    expect((await t.call(p.apiKey, 'DELETE', '/v1/groups/nav')).status).toBe(204);
    expect((await p.get('/v1/translations/de?status=all')).status).toBe(404);
  });
});
