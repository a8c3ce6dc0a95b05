// `tms push --remove-unused` reads the source files' keys on the client with small readers of its
// own (cli/src/file-keys: the CLI imports nothing of the server). They must name every key the
// server's codecs read, or a key still in use would be deleted: checked here on the real-world
// fixtures and on hostile generated files, against core/formats itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FORMATS } from '../../core/formats/index.ts';
import type { FormatId } from '../../core/formats/types.ts';
import { keysOf } from '../../cli/src/file-keys/index.ts';
import { entriesFor } from '../formats/support/arbitraries.ts';
import { MAIN, RELATIONSHIPS, sheetOf, workbookOf } from '../formats/support/workbook-parts.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const sorted = (keys: Iterable<string>) => [...keys].sort();
const cliKeys = async (format: string, body: Uint8Array, language: string) => (await keysOf(format, body, language)).map((k) => k.key);
const serverKeys = (format: FormatId, body: Uint8Array, language: string) => FORMATS[format].parse(body, { language }).entries.map((e) => e.key);

describe('the CLI reads the keys the server reads', () => {
  // Files in the shape tools emit (test/fixtures/formats): every key the server reads, and no
  // key the file does not name.
  const FIXTURES: [FormatId, string, string][] = [
    ['android', 'android-strings.xml', 'de'],
    ['ios-strings', 'Localizable.strings', 'de'],
    ['ios-stringsdict', 'Localizable.stringsdict', 'de'],
    ['po', 'messages.po', 'de'],
    ['i18next', 'translation.i18next.json', 'de'],
    ['arb', 'app_de.arb', 'de'],
    ['yaml', 'de.yml', 'de'],
    ['xliff', 'messages.de.xlf', 'de'],
    ['xliff2', 'messages.de.xlf2', 'de'],
    ['csv', 'sheet.csv', 'de'],
    ['resx', 'Strings.de.resx', 'de'],
    ['properties', 'messages_de.properties', 'de'],
  ];
  it.each(FIXTURES)('%s: %s', async (format, file, language) => {
    const body = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'formats', file));
    const server = FORMATS[format].parse(body, { language });
    const expected = server.entries.map((e) => e.key);
    expect(expected.length).toBeGreaterThan(0);
    const read = await cliKeys(format, body, language);
    expect(read).toEqual(expect.arrayContaining(expected));
    // Keys the server skips with a warning (translatable="false", a resource reference, a fuzzy or
    // untranslated message, a YAML list) are still in the file: the CLI counts them as present.
    const extra = read.filter((k) => !expected.includes(k));
    if (extra.length) expect(server.warnings.join('\n')).toMatch(/skipped/);
    expect(extra.length).toBeLessThanOrEqual(2);
  });

  it('every format, on generated files with hostile keys and values (csv and xlsx groups too)', async () => {
    for (const format of Object.keys(FORMATS) as FormatId[]) {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('en', 'de', 'ru', 'ar', 'ja'), fc.gen(), async (language, gen) => {
          const entries = gen(() => entriesFor(format, language));
          const source = { language: 'en', values: new Map(entries.map((e) => [e.key, `src ${e.value}`])) };
          // XLIFF's source side only: the tables would write it in a column of their own.
          const body = FORMATS[format].serialize(entries, { language, ...(FORMATS[format].needsSource ? { source } : {}) });
          const read = await keysOf(format, body, language);
          expect(sorted(read.map((k) => k.key)), format).toEqual(sorted(serverKeys(format, body, language)));
          if (format === 'csv' || format === 'xlsx') expect(read.map((k) => k.group)).toEqual(FORMATS[format].parse(body, { language }).entries.map((e) => e.group));
        }),
        { numRuns: 40 },
      );
    }
  });

  it('the cases the codecs decide: i18next plurals, YAML plurals and merges, PO contexts, UTF-16 .strings', async () => {
    const cases: [FormatId, string | Uint8Array, string][] = [
      // A plural needs _other and a base that is no key of its own; cardinals before ordinals.
      ['i18next', JSON.stringify({ a: { n_one: '1', n_other: 'n', x_one: 'x', x: 'y', o_ordinal_one: '1st', o_ordinal_other: 'nth', p_one: '' } }), 'en'],
      ['i18next', JSON.stringify({ k_one: 'a', k_other: 'b', k_ordinal_one: 'c', k_ordinal_other: 'd' }), 'en'],
      ['yaml', 'en:\n  base: &b\n    x: X\n    y: Y\n  merged:\n    <<: *b\n    y: Z\n  count:\n    one: one\n    other: many\n  notplural:\n    one: a\n    extra: b\n', 'en'],
      ['yaml', 'en:\n  a: A\nde:\n  b: B\n', 'de'],
      ['po', 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgctxt "menu"\nmsgid ""\n"Op"\n"en"\nmsgstr "Öffnen"\n\nmsgid "a\\\\b\\"\\101"\nmsgstr "x"\n\n#~ msgid "gone"\n#~ msgstr "weg"\n', 'de'],
      ['ios-strings', new Uint8Array([0xff, 0xfe, ...new Uint8Array(new Uint16Array([...'/* c */\n"a\\"b" = "x";\nplain = "y";\n"k\\U00e9";\n'].map((c) => c.charCodeAt(0))).buffer)]), 'de'],
      ['csv', 'sep=;\nKEY;Value;group\n"a;b";"x\ny";g\nc;d;\n', 'de'],
      // The first worksheet in workbook order (not the first part), columns in another order, cells
      // without references, shared strings with runs and phonetic runs, escapes, empty rows.
      [
        'xlsx',
        workbookOf({
          'xl/workbook.xml': `<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheets><sheet name="Keys" sheetId="2" r:id="rId3"/><sheet name="de" sheetId="1" r:id="rId1"/></sheets></workbook>`,
          'xl/_rels/workbook.xml.rels': `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId3" Type="${RELATIONSHIPS}/worksheet" Target="/xl/worksheets/sheet2.xml"/><Relationship Id="rId2" Type="${RELATIONSHIPS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
          'xl/sharedStrings.xml': `<sst xmlns="${MAIN}"><si><t>Key</t></si><si><r><t>home.</t></r><r><rPr><b/></rPr><t>title</t></r><rPh sb="0" eb="1"><t>ほーむ</t></rPh></si><si><t>_x005F_x0041_</t></si></sst>`,
          'xl/worksheets/sheet1.xml': sheetOf([['value', 'key'], ['x', 'other']]),
          'xl/worksheets/sheet2.xml': `<worksheet xmlns="${MAIN}"><sheetData><row r="2"><c t="inlineStr"><is><t>VALUE</t></is></c><c t="inlineStr"><is><t>group</t></is></c><c t="s"><v>0</v></c></row><row r="3"/><row r="5"><c r="C5" t="s"><v>1</v></c></row><row><c t="inlineStr"><is><t>y</t></is></c><c t="inlineStr"><is><t>g</t></is></c><c t="s"><v>2</v></c></row><row r="9"><c r="C9"><v>42</v></c></row></sheetData></worksheet>`,
        }),
        'de',
      ],
      ['android', '<resources><!-- <string name="commented">x</string> --><string name="a&amp;b">x</string><string-array name="arr"><item>1</item><item><![CDATA[<b>]]></item></string-array></resources>', 'de'],
      // Product variants: the default is the key; the tablet's array has an item more that is not read.
      ['android', '<resources><string name="tip" product="tablet">T</string><string name="tip">t</string><string-array name="d"><item>1</item></string-array><string-array name="d" product="tablet"><item>1</item><item>2</item></string-array></resources>', 'de'],
    ];
    for (const [format, file, language] of cases) {
      const body = typeof file === 'string' ? enc(file) : file;
      let expected: string[];
      try {
        expected = serverKeys(format, body, language);
      } catch (error) {
        // Android refuses '&' in a name: the CLI need not agree on files the server refuses.
        expect(format).toBe('android');
        expected = ['a&b', 'arr[0]', 'arr[1]'];
        expect(String(error)).toMatch(/name/);
      }
      expect(sorted(await cliKeys(format, body, language)), `${format}: ${String(file)}`).toEqual(sorted(expected));
    }
  });

  it('a PO msgid with a tab, which the server skips (no key can hold it), still counts as in the file', async () => {
    const body = enc('msgid "a\\tb"\nmsgstr "x"\n\nmsgid "c"\nmsgstr "y"\n');
    expect(serverKeys('po', body, 'de')).toEqual(['c']);
    expect(sorted(await cliKeys('po', body, 'de'))).toEqual(['a\tb', 'c']);
  });

  it('YAML aliases that expand without bound or refer to their own mapping are refused, not followed', async () => {
    // Nine levels of ten aliases each: a billion entries from a few hundred bytes.
    let bomb = 'en:\n  l0: &l0 {a: x, b: x, c: x, d: x, e: x, f: x, g: x, h: x, i: x, j: x}\n';
    for (let i = 1; i < 9; i++) bomb += `  l${i}: &l${i} {${'abcdefghij'.split('').map((c) => `${c}: *l${i - 1}`).join(', ')}}\n`;
    await expect(keysOf('yaml', enc(bomb), 'en')).rejects.toThrow(/too many entries/);
    const loop = 'en: &root\n  a: A\n  again: *root\n';
    await expect(keysOf('yaml', enc(loop), 'en')).rejects.toThrow(/refers to a mapping that contains it/);
  });
});
