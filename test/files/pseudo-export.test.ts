// Pseudo-localized exports (`GET /v1/export/{language}?pseudo=en-XA`, docs/decisions.md,
// "Pseudo-localization"): every text accented and lengthened between brackets, everything an app
// reads as syntax kept, so that the file still formats (checked with intl-messageformat and i18next
// themselves), and in every format a file that its own import reads back as those values.
import i18next from 'i18next';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/formats/index.ts';
import type { FormatId } from '../../core/formats/types.ts';
import { pseudoLocalize } from '../../core/files/pseudo-localize.ts';
import { sayTheSame } from '../../core/formats/plural/every-category.ts';
import { placeholders } from '../../core/quality/placeholders.ts';
import { parseIcu } from '../../core/quality/icu.ts';
import { useTestApp } from '../support/test-app.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();

// English source texts as apps hold them: ICU, i18next, printf, HTML, entities, an address, a newline.
const VALUES: Record<string, string> = {
  'home.save': 'Save',
  'home.greeting': 'Hello {name}, you have {count, plural, one {# new message} other {# new messages}}',
  'home.welcome': 'Welcome <b>{{user}}</b>! See $t(home.help)',
  'home.help': 'Help is at https://example.com/help or help@example.com',
  'home.files': '%1$s of %2$d files',
  'home.quote': 'Tom & Jerry said "hi" \\ then left',
  'home.lines': 'Line one\nLine two',
  'home.empty_ok': 'OK',
  // One plural and nothing else: the formats write it their own way (i18next's _one/_other keys).
  'home.count': '{count, plural, one {# file} other {# files}}',
};

async function seeded() {
  const p = await project(t, ['en', 'de']);
  const file = FORMATS.json.serialize(Object.entries(VALUES).map(([key, value]) => ({ key, value })), { language: 'en' });
  const res = await t.app.request('/v1/import/en?format=json&status=approved', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: file });
  expect(res.status, await res.clone().text()).toBe(200);
  return p;
}

describe('pseudo-localized export', () => {
  it('accents and lengthens every text between brackets, keeping placeholders, tags, ICU and addresses', async () => {
    const p = await seeded();
    const res = await p.get('/v1/export/en?format=json&pseudo=en-XA');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="en-XA.json"');
    const file = (await res.json()) as Record<string, string>;
    expect(Object.keys(file).sort()).toEqual(Object.keys(VALUES).sort());
    expect(file['home.save']).toBe('[Šåṽé one]');
    expect(file['home.empty_ok']).toBe('[ÖĶ o]');
    expect(file['home.files']).toBe('[%1$s öƒ %2$d ƒîļéš one tw]');
    expect(file['home.help']).toBe('[Ĥéļþ îš åţ https://example.com/help öŕ help@example.com one two t]');
    expect(file['home.lines']).toBe('[Ļîñé öñé\nĻîñé ţŵö one two thr]');
    // Each branch between brackets, so that the value stays one plural.
    expect(file['home.count']).toBe('{count, plural, one {[# ƒîļé one]} other {[# ƒîļéš one]}}');
    for (const [key, source] of Object.entries(VALUES)) {
      const pseudo = file[key]!;
      expect(key === 'home.count' || (pseudo.startsWith('[') && pseudo.endsWith(']')), key).toBe(true);
      // The same placeholders, and longer: by at least 30% of its words' letters (kept addresses
      // and placeholders are not lengthened).
      expect(placeholders(pseudo, parseIcu(pseudo)), key).toEqual(placeholders(source, parseIcu(source)));
      const letters = source.replace(/https?:\/\/\S+|\S+@\S+|\{[^{}]*\}|%\d\$\w|\$t\([^)]*\)|<[^>]*>/g, '').replace(/[^A-Za-z]/g, '').length;
      expect([...pseudo].length - [...source].length, key).toBeGreaterThanOrEqual(Math.ceil(letters * 0.3));
      expect(pseudo, key).toBe(pseudoLocalize(source, 'en'));
    }
    // ICU still formats, each plural branch pseudo-localized.
    const greeting = new IntlMessageFormat(file['home.greeting']!, 'en');
    expect(greeting.format({ name: 'Ada', count: 1 })).toBe('[Ĥéļļö Ada, ýöû ĥåṽé 1 ñéŵ ṁéššåĝé one two t one two t]');
    expect(greeting.format({ name: 'Ada', count: 3 })).toBe('[Ĥéļļö Ada, ýöû ĥåṽé 3 ñéŵ ṁéššåĝéš one two one two t]');
  });

  it('an i18next file that i18next itself interpolates and nests', async () => {
    const p = await seeded();
    const res = await p.get('/v1/export/en?format=i18next&pseudo=en-XA');
    expect(res.status).toBe(200);
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en-XA', resources: { 'en-XA': { translation: await res.json() } }, interpolation: { escapeValue: false } });
    expect(i18n.t('home.welcome', { user: 'Ada' })).toBe(`[Ŵéļçöṁé <b>Ada</b>! Šéé ${pseudoLocalize(VALUES['home.help']!, 'en')} one two t]`);
    // The plural as i18next's own keys (found when i18next showed the ICU source instead).
    expect(i18n.t('home.count', { count: 1 })).toBe('[1 ƒîļé one]');
    expect(i18n.t('home.count', { count: 2 })).toBe('[2 ƒîļéš one]');
  });

  it('a code of the project, a bad code, and the ETag of the pseudo file', async () => {
    const p = await seeded();
    for (const code of ['en', 'de', 'DE']) {
      const res = await p.get(`/v1/export/en?format=json&pseudo=${code}`);
      expect(res.status, code).toBe(422);
      expect((await body(res)).detail[0]).toMatchObject({ loc: ['query', 'pseudo'], msg: expect.stringContaining('is a language of this project') });
    }
    const bad = await p.get('/v1/export/en?format=json&pseudo=not_a_code');
    expect(bad.status).toBe(422);
    expect((await body(bad)).detail[0].loc).toEqual(['query', 'pseudo']);
    // Its own strong ETag: a revalidation is a 304, and it differs from the plain file's.
    const first = await p.get('/v1/export/en?format=json&pseudo=qps-ploc');
    expect(first.headers.get('content-disposition')).toBe('attachment; filename="qps-Ploc.json"');
    const etag = first.headers.get('etag')!;
    expect(etag).not.toBe((await p.get('/v1/export/en?format=json')).headers.get('etag'));
    const again = await t.app.request('/v1/export/en?format=json&pseudo=qps-ploc', { headers: { 'X-API-Key': p.apiKey, 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });

  describe('a right-to-left pseudo-language (ar-XB)', () => {
    const RLO_WORD = (w: string) => `\u200f\u202e${w}\u202c\u200f`;
    const bidiControls = /[\u200f\u202e\u202c]/g;

    it('forces each word right-to-left, without accents, lengthening or brackets, and keeps all that is not text', async () => {
      const p = await seeded();
      const res = await p.get('/v1/export/en?format=json&pseudo=ar-xb');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="ar-XB.json"');
      const file = (await res.json()) as Record<string, string>;
      expect(file['home.save']).toBe(RLO_WORD('Save'));
      expect(file['home.files']).toBe(`%1$s ${RLO_WORD('of')} %2$d ${RLO_WORD('files')}`);
      expect(file['home.help']).toBe(`${['Help', 'is', 'at'].map(RLO_WORD).join(' ')} https://example.com/help ${RLO_WORD('or')} help@example.com`);
      expect(file['home.lines']).toBe(`${RLO_WORD('Line')} ${RLO_WORD('one')}\n${RLO_WORD('Line')} ${RLO_WORD('two')}`);
      expect(file['home.count']).toBe(`{count, plural, one {# ${RLO_WORD('file')}} other {# ${RLO_WORD('files')}}}`);
      for (const [key, source] of Object.entries(VALUES)) {
        // Only the controls were added: without them, the source exactly.
        expect(file[key]!.replace(bidiControls, ''), key).toBe(source);
        expect(file[key], key).not.toBe(source);
        expect(placeholders(file[key]!, parseIcu(file[key]!)), key).toEqual(placeholders(source, parseIcu(source)));
      }
      // ICU formats it with Arabic's plural rules: 3 is `few`, which the value leaves to `other`.
      const greeting = new IntlMessageFormat(file['home.greeting']!, 'ar-XB');
      expect(greeting.format({ name: 'Ada', count: 3 })).toBe(`${RLO_WORD('Hello')} Ada${RLO_WORD(',')} ${['you', 'have'].map(RLO_WORD).join(' ')} ${new Intl.NumberFormat('ar-XB').format(3)} ${['new', 'messages'].map(RLO_WORD).join(' ')}`);
    });

    it('an i18next file with every plural key Arabic picks, which i18next itself reads right-to-left', async () => {
      const p = await seeded();
      const res = await p.get('/v1/export/en?format=i18next&pseudo=ar-XB');
      expect(res.status).toBe(200);
      const json = (await res.json()) as Record<string, Record<string, string>>;
      // zero, two, few and many with other's text: i18next does not fall back to _other by itself.
      expect(Object.keys(json.home!).filter((k) => k.startsWith('count_')).sort()).toEqual(['count_few', 'count_many', 'count_one', 'count_other', 'count_two', 'count_zero']);
      const i18n = i18next.createInstance();
      await i18n.init({ lng: 'ar-XB', fallbackLng: false, resources: { 'ar-XB': { translation: json } }, interpolation: { escapeValue: false } });
      expect(i18n.dir()).toBe('rtl');
      expect(i18n.t('home.count', { count: 1 })).toBe(`1 ${RLO_WORD('file')}`);
      for (const count of [0, 2, 3, 11, 100]) expect(i18n.t('home.count', { count }), String(count)).toBe(`${count} ${RLO_WORD('files')}`);
      expect(i18n.t('home.welcome', { user: 'Ada' })).toBe(`${RLO_WORD('Welcome')} <b>Ada</b>${RLO_WORD('!')} ${RLO_WORD('See')} ${file(VALUES['home.help']!)}`);
      function file(source: string) {
        return pseudoLocalize(source, 'en', 'bidi');
      }
    });

    it('a plural with =0 is i18next\'s, Rails\' and iOS\'s own plural, and i18next picks each form (it was ICU text: found by review)', async () => {
      const p = await project(t, ['en', 'de']);
      const file = FORMATS.json.serialize([{ key: 'cart', value: '{count, plural, =0 {Your cart is empty} one {# item} other {# items}}' }], { language: 'en' });
      expect((await t.app.request('/v1/import/en?format=json&status=approved', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: file })).status).toBe(200);
      const json = (await (await p.get('/v1/export/en?format=i18next&pseudo=ar-XB')).json()) as Record<string, string>;
      const i18n = i18next.createInstance();
      await i18n.init({ lng: 'ar-XB', fallbackLng: false, resources: { 'ar-XB': { translation: json } }, interpolation: { escapeValue: false } });
      expect(i18n.t('cart', { count: 0 })).toBe(['Your', 'cart', 'is', 'empty'].map(RLO_WORD).join(' '));
      expect(i18n.t('cart', { count: 1 })).toBe(`1 ${RLO_WORD('item')}`);
      for (const count of [2, 3, 11, 100]) expect(i18n.t('cart', { count })).toBe(`${count} ${RLO_WORD('items')}`);
      for (const format of ['yaml', 'ios-stringsdict', 'xcstrings']) {
        const text = await (await p.get(`/v1/export/en?format=${format}&pseudo=ar-XB`)).text();
        expect(text, format).not.toContain('{count, plural');
      }
    });

    it('an Android file keeps <xliff:g> an element in both pseudo-languages (it was written as escaped text: found by review)', async () => {
      const p = await project(t, ['en', 'de']);
      const xml = `<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <string name="welcome">Hello <xliff:g id="user" example="Ada">%1$s</xliff:g>, welcome</string>
</resources>`;
      expect((await t.app.request('/v1/import/en?format=android&status=approved', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: xml })).status).toBe(200);
      for (const pseudo of ['ar-XB', 'en-XA']) {
        const out = await (await p.get(`/v1/export/en?format=android&pseudo=${pseudo}`)).text();
        expect(out, pseudo).not.toContain('&lt;xliff:g');
        expect(out, pseudo).toContain('<xliff:g id="user" example="Ada">%1$s</xliff:g>');
      }
    });

    it('a PO file with Arabic\'s six plural forms', async () => {
      const p = await seeded();
      const res = await p.get('/v1/export/en?format=po&pseudo=ar-XB');
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toMatch(/"Plural-Forms: nplurals=6;/);
      expect(text).toMatch(/"Language: ar[-_]XB\\n"/);
      // Slot 1 is `one`; zero, two, few, many and other all say other's text.
      expect(text).toContain(['msgid "home.count"', 'msgid_plural "home.count"', ...[0, 1, 2, 3, 4, 5].map((i) => `msgstr[${i}] "%d ${RLO_WORD(i === 1 ? 'file' : 'files')}"`)].join('\n'));
    });
  });

  describe.each(Object.keys(FORMATS) as FormatId[])('%s', (format) => {
    it('is a file that the same format imports back as the pseudo-localized values', async () => {
      const p = await seeded();
      const needsSource = FORMATS[format].needsSource ? '&source=en' : '';
      const res = await p.get(`/v1/export/en?format=${format}${needsSource}&pseudo=en-XA`);
      expect(res.status, await res.clone().text()).toBe(200);
      const file = new Uint8Array(await res.arrayBuffer());
      // Into a project whose own language is en-XA, as an app's repository holds the file.
      const other = await project(t, ['en', 'en-XA']);
      if (needsSource) {
        const en = FORMATS.json.serialize(Object.entries(VALUES).map(([key, value]) => ({ key, value })), { language: 'en' });
        expect((await t.app.request('/v1/import/en?format=json&status=approved', { method: 'POST', headers: { 'X-API-Key': other.apiKey }, body: en })).status).toBe(200);
      }
      const imported = await t.app.request(`/v1/import/en-XA?format=${format}&status=approved`, { method: 'POST', headers: { 'X-API-Key': other.apiKey }, body: file });
      expect(imported.status, await imported.clone().text()).toBe(200);
      const back = (await (await other.get('/v1/export/en-XA?format=json')).json()) as Record<string, string>;
      const expected = Object.fromEntries(Object.entries(VALUES).map(([key, value]) => [key, pseudoLocalize(value, 'en')]));
      // A PO file names its keys by their English text (msgctxt keeps the key): compared by value.
      if (FORMATS[format].keysAreText) expect(Object.values(back).sort()).toEqual(Object.values(expected).sort());
      else expect(back).toEqual(expected);
    });

    it('is, for ar-XB, a file that the same format imports back as the right-to-left values', async () => {
      const p = await seeded();
      const needsSource = FORMATS[format].needsSource ? '&source=en' : '';
      const res = await p.get(`/v1/export/en?format=${format}${needsSource}&pseudo=ar-XB`);
      expect(res.status, await res.clone().text()).toBe(200);
      const other = await project(t, ['en', 'ar-XB']);
      if (needsSource) {
        const en = FORMATS.json.serialize(Object.entries(VALUES).map(([key, value]) => ({ key, value })), { language: 'en' });
        expect((await t.app.request('/v1/import/en?format=json&status=approved', { method: 'POST', headers: { 'X-API-Key': other.apiKey }, body: en })).status).toBe(200);
      }
      const imported = await t.app.request(`/v1/import/ar-XB?format=${format}&status=approved`, { method: 'POST', headers: { 'X-API-Key': other.apiKey }, body: new Uint8Array(await res.arrayBuffer()) });
      expect(imported.status, await imported.clone().text()).toBe(200);
      const back = (await (await other.get('/v1/export/ar-XB?format=json')).json()) as Record<string, string>;
      const expected = Object.values(VALUES).map((value) => pseudoLocalize(value, 'en', 'bidi'));
      // A plural comes back with Arabic's every category (other's text in those the source lacks).
      const got = Object.values(back);
      expect(got.length).toBe(expected.length);
      for (const value of expected) expect(got.some((g) => sayTheSame(g, value, 'ar-XB')), value).toBe(true);
    });
  });
});
