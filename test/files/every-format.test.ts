// Every format through HTTP, on both databases: a file the codec writes imports whole, exports to
// the same bytes, and re-imports with no change; a broken file of every format is a 422 that says
// where, with nothing written.
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/formats/index.ts';
import type { Entry, FormatId } from '../../core/formats/types.ts';
import { useTestApp } from '../support/test-app.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();

// Hostile but storable in every format: quotes, backslashes, placeholders, HTML, emoji, RTL, a newline.
const ENTRIES: Entry[] = [
  { key: 'home.title', value: 'Willkommen, {name}!', description: 'Greeting on the home page' },
  { key: 'home.quote', value: 'Er sagte "hallo" \\ und ging' },
  { key: 'home.html', value: 'Klicke <b>hier</b> & %1$s %@ {{count}}' },
  { key: 'home.emoji', value: 'Gut gemacht 👋 — שלום' },
  { key: 'home.lines', value: 'Zeile eins\nZeile zwei' },
  { key: 'files.count', value: '{count, plural, one {# Datei} other {# Dateien}}' },
];

// A file each format's parser must refuse: truncated, or the wrong shape altogether.
const BROKEN: Record<FormatId, string | Uint8Array> = {
  json: '{"a": "1", "b": ',
  'json-nested': '{"a": {"b": 1}}',
  i18next: '{"a": ',
  xliff: '<?xml version="1.0"?><xliff version="1.2"><file><body><trans-unit id="a"><source>x</source>',
  xliff2: '<?xml version="1.0"?><xliff version="2.0"><file><unit id="a"><segment><target>x',
  po: 'msgid "a"\nmsgstr "b\n',
  android: '<resources><string name="a">x</string',
  'ios-strings': '"a" = "b"\n"c" = ;',
  'ios-stringsdict': '<plist version="1.0"><dict><key>a</key>',
  arb: '{"a": 1}',
  yaml: 'de:\n  a: [unclosed\n',
  csv: 'key,group,description,value\n"a,b,c,"unterminated\n',
  properties: 'a=x\nb=\\u00zz\n',
  resx: '<root><data name="a"><value>x</value></data',
  xlsx: FORMATS.xlsx.serialize([{ key: 'a', value: 'x' }], { language: 'de' }).slice(0, 200),
  xcstrings: '{"sourceLanguage" : "en", "strings" : {"a" : ',
};

/** Bodies compared as text, a binary format's (no charset: xlsx) as base64: as strict as bytes, with a readable diff. */
const asText = (format: FormatId, body: Uint8Array) => Buffer.from(body).toString(FORMATS[format].contentType.includes('charset=') ? 'utf8' : 'base64');

const ids = Object.keys(FORMATS) as FormatId[];

describe.each(ids)('%s', (format) => {
  const codec = FORMATS[format];
  // The formats that carry the source text (XLIFF's <source>, the tables' source column) export with it.
  const withSource = codec.needsSource || codec.takesSource === true;
  const query = (extra = '') => `?format=${format}${withSource ? '&source=en' : ''}${extra}`;
  const upload = (apiKey: string, file: Uint8Array | string, extra = '') =>
    t.app.request(`/v1/import/de?format=${format}${extra}`, {
      method: 'POST',
      headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/octet-stream' },
      body: file,
    });

  it('imports a file it wrote, exports the same bytes, and re-imports with no change', async () => {
    const p = await project(t, ['de', 'en']);
    const source = new Map(ENTRIES.map((e) => [e.key, `EN ${e.key}`]));
    // A format that carries groups (csv, xlsx) exports the group each key landed in: the part before the dot.
    const entries = format === 'csv' || format === 'xlsx' ? ENTRIES.map((e) => ({ ...e, group: e.key.split('.')[0]! })) : ENTRIES;
    // A String Catalog names the project's source language: its first, de.
    const file = codec.serialize(entries, { language: 'de', source: { language: 'en', values: source }, ...(codec.namesSourceLanguage ? { sourceLanguage: 'de' } : {}) });
    // XLIFF and the tables carry the source side: give the project the same English values first.
    if (withSource) {
      const en = FORMATS.json.serialize(
        ENTRIES.map((e) => ({ key: e.key, value: source.get(e.key)! })),
        { language: 'en' },
      );
      const res = await t.app.request('/v1/import/en?format=json&status=approved', {
        method: 'POST',
        headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/octet-stream' },
        body: en,
      });
      expect(res.status, await res.clone().text()).toBe(200);
    }
    const imported = await upload(p.apiKey, file, '&status=approved');
    expect(imported.status, await imported.clone().text()).toBe(200);
    expect(await body(imported)).toMatchObject({ values_created: ENTRIES.length, values_updated: 0 });

    const exported = await p.get(`/v1/export/de${query()}`);
    expect(exported.status, await exported.clone().text()).toBe(200);
    // The codec's media type as it is: `; charset=utf-8` belongs to the text formats only.
    expect(exported.headers.get('content-type')).toBe(codec.contentType);
    const bytes = new Uint8Array(await exported.arrayBuffer());
    expect(asText(format, bytes)).toBe(asText(format, file));

    const again = await upload(p.apiKey, bytes, '&status=approved');
    expect(await body(again)).toMatchObject({ keys_created: 0, values_created: 0, values_updated: 0, translation_units: 0 });
    // The plural stays one ICU value whatever the format's own construct.
    // (A PO msgid is a text, so its keys land in the Default group, not the part before the dot;
    // a String Catalog's too, unless the English import above made them.)
    const group = codec.keysAreText && !withSource ? 'Default' : 'files';
    expect((await body(await p.get(`/v1/translations/de/${group}/files.count`))).value).toBe(ENTRIES.at(-1)!.value);
  });

  it('a broken file is a 422 that says where, and writes nothing', async () => {
    const p = await project(t, ['de']);
    const res = await upload(p.apiKey, BROKEN[format]);
    expect(res.status, await res.clone().text()).toBe(422);
    const { detail } = await body(res);
    expect(detail[0].loc[0]).toBe('body');
    expect(typeof detail[0].msg).toBe('string');
    expect((await body(await p.get('/v1/keys'))).count).toBe(0);
  });
});
