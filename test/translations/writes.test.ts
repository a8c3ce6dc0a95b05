// PUT and DELETE of translation values: happy paths, overwrite rules, validation, 404s, round trips.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, expectNotFound, project, type Project } from './helpers.ts';

const t = useTestApp();

const put = (p: Project, keyId: string, language: string, payload: unknown) =>
  t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/${language}`, payload);
const del = (p: Project, keyId: string, language: string) =>
  t.call(p.apiKey, 'DELETE', `/v1/keys/${keyId}/translations/${language}`);
const readAll = async (p: Project, language: string) => body(await p.get(`/v1/translations/${language}?status=all`));

describe('PUT /v1/keys/{key_id}/translations/{language}', () => {
  let p: Project;
  let keyId: string;
  beforeAll(async () => {
    p = await project(t, ['de', 'pt-BR']);
    keyId = await p.key('home.title', 'home');
  });

  it('creates a value as draft by default and answers with the stored value', async () => {
    const res = await put(p, keyId, 'de', { value: 'Willkommen' });
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ key_id: keyId, language: 'de', value: 'Willkommen', status: 'draft', project_id: p.projectId, version: expect.any(Number), warnings: [] });
    expect((await readAll(p, 'de')).translations).toEqual({ 'home.title': { value: 'Willkommen', status: 'draft', group: 'home' } });
  });

  it('overwrites with the given status, and an overwrite without a status resets to draft', async () => {
    for (const status of ['review', 'approved', 'draft', 'approved'] as const) {
      const res = await put(p, keyId, 'de', { value: `Hallo ${status}`, status });
      expect(await body(res)).toMatchObject({ value: `Hallo ${status}`, status });
      expect((await readAll(p, 'de')).translations['home.title']).toEqual({ value: `Hallo ${status}`, status, group: 'home' });
    }
    const reset = await put(p, keyId, 'de', { value: 'Hallo again' });
    expect(await body(reset)).toMatchObject({ value: 'Hallo again', status: 'draft' });
    const all = await readAll(p, 'de');
    expect(all.count).toBe(1);
    expect(all.translations['home.title']).toEqual({ value: 'Hallo again', status: 'draft', group: 'home' });
  });

  it('canonicalizes the language code of the path', async () => {
    const res = await put(p, keyId, 'PT-br', { value: 'Olá', status: 'approved' });
    expect(res.status).toBe(200);
    expect((await body(res)).language).toBe('pt-BR');
    expect((await body(await p.get('/v1/translations/pt-br'))).translations).toEqual({ 'home.title': 'Olá' });
  });

  it('accepts exactly 10,000 characters, counted as code points, and an empty string', async () => {
    const emoji = '😀'.repeat(10_000); // 20,000 UTF-16 units, 10,000 characters
    const res = await put(p, keyId, 'de', { value: emoji });
    expect(res.status).toBe(200);
    expect((await body(res)).value).toBe(emoji);
    expect((await put(p, keyId, 'de', { value: 'x'.repeat(10_000) })).status).toBe(200);
    const empty = await put(p, keyId, 'de', { value: '' });
    expect(empty.status).toBe(200);
    expect((await readAll(p, 'de')).translations['home.title'].value).toBe('');
  });

  it('refuses invalid bodies with 422 and the field location', async () => {
    const cases: [unknown, (string | number)[], string?][] = [
      [{}, ['body', 'value'], 'missing'],
      [{ status: 'approved' }, ['body', 'value'], 'missing'],
      [{ value: null }, ['body', 'value']],
      [{ value: 42 }, ['body', 'value']],
      [{ value: ['a'] }, ['body', 'value']],
      [{ value: 'x'.repeat(10_001) }, ['body', 'value']],
      [{ value: '😀'.repeat(10_001) }, ['body', 'value']],
      [{ value: 'a\u0000b' }, ['body', 'value']],
      [{ value: 'x', status: 'published' }, ['body', 'status']],
      [{ value: 'x', status: 'Approved' }, ['body', 'status']],
      [{ value: 'x', status: null }, ['body', 'status']],
      [{ value: 'x', language: 'de' }, ['body', 'language'], 'extra_forbidden'],
    ];
    for (const [payload, loc, type] of cases) {
      const res = await put(p, keyId, 'de', payload);
      expect(res.status, JSON.stringify(payload).slice(0, 80)).toBe(422);
      const { detail } = await body(res);
      expect(detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc, ...(type ? { type } : {}) })]));
    }
    // A lone surrogate has no UTF-8 form: it must not reach Postgres.
    const lone = await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, '{"value":"a\\ud800b"}');
    expect(lone.status).toBe(422);
    expect((await body(lone)).detail[0].loc).toEqual(['body', 'value']);
    // Nothing of the refused writes was stored.
    expect((await readAll(p, 'de')).translations['home.title'].value).toBe('');
  });

  it('refuses bodies that are not a JSON object', async () => {
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, 'not json')).status).toBe(422);
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, '["x"]')).status).toBe(422);
    const text = await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, '{"value":"x"}', { 'Content-Type': 'text/plain' });
    expect(text.status).toBe(415);
  });

  it('refuses a malformed key id or language code in the path with 422', async () => {
    const badId = await put(p, 'not-a-uuid', 'de', { value: 'x' });
    expect(badId.status).toBe(422);
    expect((await body(badId)).detail[0].loc).toEqual(['path', 'key_id']);
    for (const code of ['english', 'd', 'de_DE', 'de-DEUTS', '12']) {
      const res = await put(p, keyId, code, { value: 'x' });
      expect(res.status, code).toBe(422);
      expect((await body(res)).detail[0].loc).toEqual(['path', 'language']);
    }
  });

  it('answers 404 for an unknown key, a soft-deleted key and an unregistered language', async () => {
    expect(await expectNotFound(await put(p, crypto.randomUUID(), 'de', { value: 'x' }))).toBe('Key not found');
    expect(await expectNotFound(await put(p, keyId, 'fr', { value: 'x' }))).toBe("Language 'fr' is not registered for this project");

    const doomed = await p.key('home.doomed', 'home');
    await p.put(doomed, 'de', 'weg', 'approved');
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${doomed}`)).status).toBe(204);
    expect(await expectNotFound(await put(p, doomed, 'de', { value: 'wieder' }))).toBe('Key not found');
    // An unknown key wins over an unregistered language: the key is checked first.
    expect(await expectNotFound(await put(p, doomed, 'fr', { value: 'x' }))).toBe('Key not found');
  });

  it('answers 404 after the language is removed, and writes again once it is re-registered', async () => {
    const q = await project(t, ['de', 'fr']);
    const k = await q.key('a.b', 'a');
    await q.put(k, 'fr', 'un', 'approved');
    expect((await t.call(q.apiKey, 'DELETE', '/v1/languages/fr')).status).toBe(200);
    expect(await expectNotFound(await put(q, k, 'fr', { value: 'deux' }))).toContain("'fr'");
    await q.language('fr');
    const res = await put(q, k, 'fr', { value: 'trois' });
    expect(res.status).toBe(200);
    expect((await body(res)).status).toBe('draft');
  });
});

describe('DELETE /v1/keys/{key_id}/translations/{language}', () => {
  it('deletes one value permanently, then answers 404', async () => {
    const p = await project(t, ['de', 'fr']);
    const k = await p.key('nav.back', 'nav');
    await p.put(k, 'de', 'Zurück', 'approved');
    await p.put(k, 'fr', 'Retour', 'approved');
    const res = await del(p, k, 'de');
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await expectNotFound(await del(p, k, 'de'))).toBe("This key has no 'de' translation");
    expect(await expectNotFound(await p.get('/v1/translations/de/nav/nav.back?status=all'))).toContain('nav.back');
    // The other language is untouched.
    expect(await body(await p.get('/v1/translations/fr/nav/nav.back'))).toMatchObject({ value: 'Retour' });
    // Canonicalized path code.
    expect((await del(p, k, 'FR')).status).toBe(204);
    expect((await p.get('/v1/translations/fr')).status).toBe(404);
  });

  it('answers 404 for an unknown key, a soft-deleted key, and a language without a value', async () => {
    const p = await project(t, ['de', 'fr']);
    const k = await p.key('x.y', 'x');
    await p.put(k, 'de', 'wert');
    expect(await expectNotFound(await del(p, crypto.randomUUID(), 'de'))).toBe('Key not found');
    expect(await expectNotFound(await del(p, k, 'fr'))).toBe("This key has no 'fr' translation");
    expect(await expectNotFound(await del(p, k, 'it'))).toBe("This key has no 'it' translation");
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${k}`)).status).toBe(204);
    expect(await expectNotFound(await del(p, k, 'de'))).toBe('Key not found');
  });

  it('refuses a malformed key id or language code with 422', async () => {
    const p = await project(t);
    expect((await del(p, 'nope', 'de')).status).toBe(422);
    expect((await del(p, crypto.randomUUID(), 'deutsch')).status).toBe(422);
  });
});

describe('values round-trip exactly', () => {
  const values: Record<string, string> = {
    emoji: '👋🏽 Hi 👨‍👩‍👧‍👦 🇩🇪',
    cjk: '欢迎使用 — ようこそ — 환영합니다',
    rtl: 'مرحبا بكم \u200f(RTL)\u200f שלום',
    combining: 'e\u0301 n\u0303 a\u030a Z\u0351\u0344\u036b',
    nfdVsNfc: 'Cafe\u0301 Café',
    newlines: 'line 1\nline 2\r\nline 3\n\n\ttabbed\n',
    icu: '{count, plural, =0 {No items} one {# item} other {# items}} for {name}',
    printf: '%s has %d new %1$s messages (%.2f%%)',
    html: '<b onclick="alert(1)">Bold</b> &amp; <a href=\'/x?a=1&b=2\'>link</a>',
    sqlish: "'; DROP TABLE translations; -- \" or 1=1 /* */ $$ \\x00",
    backslashes: 'C:\\path\\to\\file \\n not a newline \\u0041',
    whitespace: '  leading and trailing  ',
    json: '{"nested": ["json", 1, null]}',
    zeroWidth: 'zero\u200bwidth\u200djoiner\ufeffbom',
    astral: '𝕳𝖊𝖑𝖑𝖔 𐍈 𓀀',
  };

  it('stores and serves every value byte for byte through PUT, the three reads and status=all', async () => {
    const p = await project(t, ['ar']);
    for (const [name, value] of Object.entries(values)) {
      const id = await p.key(`rt.${name}`, 'rt');
      const res = await put(p, id, 'ar', { value, status: 'approved' });
      expect((await body(res)).value).toBe(value);
      expect((await body(await p.get(`/v1/translations/ar/rt/rt.${name}`))).value).toBe(value);
    }
    const language = await body(await p.get('/v1/translations/ar'));
    const group = await body(await p.get('/v1/translations/ar/rt?status=all'));
    for (const [name, value] of Object.entries(values)) {
      expect(language.translations[`rt.${name}`]).toBe(value);
      expect(group.translations[`rt.${name}`]).toEqual({ value, status: 'approved' });
    }
    expect(language.count).toBe(Object.keys(values).length);
  });
});
