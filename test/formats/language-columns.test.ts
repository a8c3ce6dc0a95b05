// A spreadsheet with one column per language (`key, en, de, fr`), as teams keep translations and as
// Lokalise's and Tolgee's spreadsheet exports hold them: without a `value` column, the column named
// after the imported language is the value (any case, `_` for `-`), the other languages' columns are
// ignored, and an empty cell there is no translation yet (its row skipped, counted in one warning),
// in CSV and in Excel alike (core/formats/table/read-table.ts). Through HTTP, one sheet imports into
// each of its languages.
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/formats/index.ts';
import { tableWorkbook } from './support/workbook-parts.ts';
import { useTestApp } from '../support/test-app.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();
const ROWS = [
  ['Key', 'Description', 'EN', 'de', 'pt_BR'],
  ['home.title', 'Title of the main screen', 'Welcome', 'Willkommen', 'Bem-vindo'],
  ['home.cta', '', 'Start', '', 'Começar'],
  ['home.bye', '', 'Bye', 'Tschüss', ''],
];
const csv = (rows: string[][]) => new TextEncoder().encode(rows.map((r) => r.join(',')).join('\r\n') + '\r\n');
const files = { csv: csv(ROWS), xlsx: tableWorkbook(ROWS) } as const;

describe.each(['csv', 'xlsx'] as const)('%s with a column per language', (format) => {
  const read = (language: string) => FORMATS[format].parse(files[format], { language });

  it("reads the imported language's column, skipping its empty cells with one warning", () => {
    expect(read('de')).toEqual({
      entries: [
        { key: 'home.title', value: 'Willkommen', description: 'Title of the main screen' },
        { key: 'home.bye', value: 'Tschüss' },
      ],
      warnings: ['columns ignored: en, pt_br', '1 row has no text in the de column: skipped (not translated yet)'],
    });
    expect(read('en').entries.map((e) => e.value)).toEqual(['Welcome', 'Start', 'Bye']);
    expect(read('pt-BR').entries.map((e) => e.key)).toEqual(['home.title', 'home.cta']);
  });

  it('a language without a column is refused, naming what the header lacks', () => {
    expect(() => read('fr')).toThrow('the header has no value column, nor one named fr');
  });

  it('a value column wins over a column named after the language, and keeps its empty cells as empty values', () => {
    const rows = [['key', 'value', 'de'], ['a', '', 'x']];
    const file = format === 'csv' ? csv(rows) : tableWorkbook(rows);
    expect(FORMATS[format].parse(file, { language: 'de' })).toEqual({ entries: [{ key: 'a', value: '' }], warnings: ['columns ignored: de'] });
  });
});

describe('through HTTP', () => {
  it('one workbook imports into each of its languages, and an untranslated cell writes nothing', async () => {
    const p = await project(t, ['en', 'de']);
    const upload = (language: string) =>
      t.app.request(`/v1/import/${language}?format=xlsx&status=approved`, { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/octet-stream' }, body: files.xlsx });
    const en = await body(await upload('en'));
    expect(en).toMatchObject({ keys_created: 3, values_created: 3 });
    const de = await body(await upload('de'));
    expect(de).toMatchObject({ keys_created: 0, values_created: 2, warnings: ['columns ignored: en, pt_br', '1 row has no text in the de column: skipped (not translated yet)'] });
    expect(await body(await p.get('/v1/translations/de'))).toMatchObject({ translations: { 'home.title': 'Willkommen', 'home.bye': 'Tschüss' }, count: 2 });
  });
});
