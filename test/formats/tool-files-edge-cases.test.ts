// Files as CAT tools, Transifex, Xcode and Android Studio write them, at the edges the codecs must
// get right: an empty <target/> is untranslated (XLIFF 1.2 and 2.0), a Plural-Forms header that
// fails for large n is a 422, a 4-form Transifex header keeps its fraction form, `%%` is a
// percent sign in printf plural forms (and a `%` is written `%%`), `%1$d` (Android) and `%lld`
// (stringsdict) are the count, and an Android array or plural with a resource reference as an item
// is skipped. Codec-level, plus two through HTTP.
import { describe, expect, it } from 'vitest';
import { FORMATS, FormatError } from '../../core/formats/index.ts';
import { sayTheSame } from '../../core/formats/plural/every-category.ts';
import type { FormatId } from '../../core/formats/types.ts';
import { useTestApp } from '../support/test-app.ts';
import { body, project } from '../translations/helpers.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const parse = (format: FormatId, text: string, language = 'de') => FORMATS[format].parse(enc(text), { language });
const write = (format: FormatId, entries: Parameters<(typeof FORMATS)['json']['serialize']>[0], language = 'de') =>
  dec(FORMATS[format].serialize(entries, { language }));

const po = (language: string, pluralForms: string, forms: string[]) =>
  [
    'msgid ""',
    'msgstr ""',
    `"Language: ${language}\\n"`,
    '"Content-Type: text/plain; charset=UTF-8\\n"',
    `"Plural-Forms: ${pluralForms}\\n"`,
    '',
    'msgid "%d file"',
    'msgid_plural "%d files"',
    ...forms.map((f, i) => `msgstr[${i}] "${f}"`),
    '',
  ].join('\n');

describe('android', () => {
  it('a string-array item that is a resource reference stays a reference on the way back', () => {
    const file = `<resources>
    <string name="mercury">Merkur</string>
    <string-array name="planets">
        <item>@string/mercury</item>
        <item>Venus</item>
    </string-array>
</resources>`;
    const parsed = parse('android', file);
    const out = write('android', parsed.entries);
    // Stored as the text "@string/mercury", it would be written back escaped and the app would show
    // the literal text: the array is skipped whole, as a <string> reference is.
    expect(out).not.toContain('\\@string/mercury');
    expect(parsed.entries.map((e) => e.key)).toEqual(['mercury']);
    expect(parsed.warnings).toEqual([expect.stringMatching(/resource references .* skipped: planets$/)]);
  });

  it('a plurals whose item is a resource reference is skipped with a warning', () => {
    const file = '<resources><plurals name="songs"><item quantity="one">@string/one_song</item><item quantity="other">%d Lieder</item></plurals></resources>';
    const parsed = parse('android', file);
    expect(parsed.entries).toEqual([]);
    expect(parsed.warnings).toEqual([expect.stringMatching(/resource references .* skipped: songs$/)]);
  });

  // aapt2's ResourceParser::ParseXml: a string with a styling span is a StyledString, never tried as
  // a reference; one without spans is tried on its raw text, <xliff:g>'s text included, trimmed.
  it('a string with a span that begins with a space and @ is text, read back as written', () => {
    for (const value of [' @<br/>', ' ?<b>x</b>', ' @string/x <i>y</i>']) {
      const out = write('android', [{ key: 'x', value }]);
      const parsed = parse('android', out);
      expect(parsed.entries, out).toEqual([{ key: 'x', value }]);
      expect(parsed.warnings).toEqual([]);
    }
  });

  it('an @ that begins the text inside an <xliff:g> is a reference without spans, and the export escapes it', () => {
    const file = '<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2"><string name="x"><xliff:g id="r">@string/y</xliff:g></string></resources>';
    expect(parse('android', file).warnings).toEqual([expect.stringMatching(/resource references .* skipped: x$/)]);
    const value = '<xliff:g id="r">@string/y</xliff:g> und mehr';
    const out = write('android', [{ key: 'x', value }]);
    expect(out).toContain('<xliff:g id="r">\\@string/y</xliff:g>');
    expect(parse('android', out).entries).toEqual([{ key: 'x', value }]);
  });
});

describe('yaml', () => {
  it('text of nothing but spaces and line breaks comes back with its spaces', () => {
    // The yaml library writes " \n" as `|+` with no indentation indicator; a reader takes the
    // longest line's spaces for the indentation and reads "\n".
    for (const value of [' \n', '  \n', ' \n\n', '\t\n', '\n \n']) {
      const out = write('yaml', [{ key: 'k', value }], 'en');
      expect(parse('yaml', out, 'en').entries, out).toEqual([{ key: 'k', value }]);
    }
  });

  it('a quoted value of 40 characters or more with a lone space between line breaks comes back unchanged', () => {
    // Found by the round-trip property (CI, stop 65): the library wrote such a string over lines and
    // escaped the space twice, so a backslash appeared on the way back.
    for (const value of ['\n \n'.repeat(10), '\n '.repeat(20), '\u0001 x\n \n y '.repeat(5)]) {
      const out = write('yaml', [{ key: 'k', value }], 'en');
      expect(parse('yaml', out, 'en').entries, out).toEqual([{ key: 'k', value }]);
      expect(write('yaml', parse('yaml', out, 'en').entries, 'en')).toEqual(out);
    }
  });
});

describe('printf plural dialects (android, po, stringsdict)', () => {
  it('%% in an Android plural item is a percent sign in the stored ICU value and in i18next', () => {
    const file = '<resources><plurals name="done"><item quantity="one">%d%% erledigt</item><item quantity="other">%d%% erledigt</item></plurals></resources>';
    const out = JSON.parse(write('i18next', parse('android', file).entries));
    // Not "{{count}}%% erledigt", which i18next would show with two percent signs.
    expect(out.done_other).toBe('{{count}}% erledigt');
  });

  it('a % in an i18next plural form is written %% in Android plural items', () => {
    const file = JSON.stringify({ done_one: '{{count}}% erledigt', done_other: '{{count}}% erledigt' });
    const out = write('android', parse('i18next', file).entries);
    // Not "%d% erledigt": getQuantityString() would throw (java.util.Formatter reads "% e" as a conversion).
    expect(out).toContain('<item quantity="other">%d%% erledigt</item>');
  });

  it("an Android plural counting with %1$d gives i18next a {{count}}", () => {
    const file = '<resources><plurals name="songs"><item quantity="one">%1$d Lied</item><item quantity="other">%1$d Lieder</item></plurals></resources>';
    const out = JSON.parse(write('i18next', parse('android', file).entries));
    expect(out.songs_other).toBe('{{count}} Lieder');
  });

  it('an Android %1$d beside another integer conversion is not known to be the count and stays text', () => {
    const file = '<resources><plurals name="page"><item quantity="one">%1$d von %2$d</item><item quantity="other">%1$d von %2$d</item></plurals></resources>';
    expect(parse('android', file).entries[0]?.value).toBe('{count, plural, one {%1$d von %2$d} other {%1$d von %2$d}}');
  });

  it('a .stringsdict whose forms use %lld without NSStringFormatValueTypeKey exports as a plural again', () => {
    const file = `<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
	<key>files</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string>%#@files@</string>
		<key>files</key>
		<dict>
			<key>NSStringFormatSpecTypeKey</key>
			<string>NSStringPluralRuleType</string>
			<key>one</key>
			<string>%lld file</string>
			<key>other</key>
			<string>%lld files</string>
		</dict>
	</dict>
</dict>
</plist>`;
    const out = write('ios-stringsdict', parse('ios-stringsdict', file, 'en').entries, 'en');
    // Not the raw ICU text "{files, plural, one {%lld file} ...}" as the format key, which iOS would show.
    expect(out).toContain('NSStringPluralRuleType');
    expect(out).toContain('<string>%lld files</string>');
  });
});

describe('po plurals', () => {
  it('a 4-form Polish header (Transifex) keeps the fraction form msgstr[3] as other', () => {
    const header = 'nplurals=4; plural=(n==1 ? 0 : (n%10>=2 && n%10<=4) && (n%100<12 || n%100>14) ? 1 : n!=1 && (n%10>=0 && n%10<=1) || (n%10>=5 && n%10<=9) || (n%100>=12 && n%100<=14) ? 2 : 3);';
    const parsed = parse('po', po('pl', header, ['%d plik', '%d pliki', '%d plików', '%d pliku']), 'pl');
    expect(parsed.entries[0]?.value).toBe('{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}');
    expect(parsed.warnings).toEqual([]);
  });

  it('a slot no whole number reaches and no category is left for is dropped with a warning naming it', () => {
    const parsed = parse('po', po('de', 'nplurals=3; plural=(n==1 ? 0 : 1);', ['%d Datei', '%d Dateien', '%d ?']));
    expect(parsed.entries[0]?.value).toBe('{count, plural, one {# Datei} other {# Dateien}}');
    expect(parsed.warnings).toEqual([expect.stringMatching(/msgstr\[2\].* dropped/)]);
  });

  // fr/es/it/pt/ca: the 2-form Plural-Forms unless a value has the millions' `many`, then the 3-form
  // one, where the file's other plurals repeat `other` in the `many` slot (an import compares by
  // what values say, so pushing the file back changes nothing).
  it('a French PO with the 3-form CLDR header (one, many, other) exports as a plural message again', () => {
    const header = 'nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;';
    const parsed = parse('po', po('fr', header, ['%d fichier', '%d de fichiers', '%d fichiers']), 'fr');
    expect(parsed.entries[0]?.value).toBe('{count, plural, one {# fichier} many {# de fichiers} other {# fichiers}}');
    const out = write('po', parsed.entries, 'fr');
    // Not `msgstr "{count, plural, one {# fichier} many {...} other {...}}"`, which ngettext() returns as is.
    expect(out).toContain('msgid_plural');
    expect(out).not.toContain('msgstr "{count, plural');
  });

  it('i18next French plurals with _many (as i18next-parser writes them) export to PO as a plural message', () => {
    const file = JSON.stringify({ files_one: '{{count}} fichier', files_many: '{{count}} de fichiers', files_other: '{{count}} fichiers' });
    const out = write('po', parse('i18next', file, 'fr').entries, 'fr');
    expect(out).toContain('msgid_plural');
  });

  it('a file of 2-form and 3-form French plurals is written under one 3-form header; each reads back saying the same', () => {
    const values = [
      '{count, plural, one {# fichier} many {# de fichiers} other {# fichiers}}',
      '{count, plural, one {# dossier} other {# dossiers}}',
    ];
    const entries = values.map((value, i) => ({ key: `k${i}`, value }));
    const out = write('po', entries, 'fr');
    expect(out).toContain('Plural-Forms: nplurals=3;');
    expect(out).toContain('msgstr[1] "%d dossiers"');
    const read = parse('po', out, 'fr').entries.map((e) => e.value);
    expect(read).toEqual([values[0], '{count, plural, one {# dossier} many {# dossiers} other {# dossiers}}']);
    read.forEach((value, i) => expect(sayTheSame(value, values[i]!, 'fr')).toBe(true));
  });

  it('Spanish and Portuguese values without many keep the 2-form header; with many, each gets its own 3-form one', () => {
    expect(write('po', [{ key: 'k', value: '{count, plural, one {# archivo} other {# archivos}}' }], 'es')).toContain('Plural-Forms: nplurals=2; plural=(n != 1);');
    for (const [language, one] of [['es', '(n==1 ? 0 : n!=0 && n%1000000==0 ? 1 : 2)'], ['pt', '(n==0 || n==1 ? 0 : n%1000000==0 ? 1 : 2)'], ['pt-PT', '(n==1 ? 0 : n!=0 && n%1000000==0 ? 1 : 2)']] as const) {
      const out = write('po', [{ key: 'k', value: '{count, plural, one {# a} many {# de b} other {# b}}' }], language);
      expect(out).toContain(`Plural-Forms: nplurals=3; plural=${one};`);
      expect(parse('po', out, language).entries[0]?.value).toBe('{count, plural, one {# a} many {# de b} other {# b}}');
    }
  });

  it('a Plural-Forms formula that divides by zero past n = 1000 is a FormatError, not a plain Error', () => {
    const header = 'nplurals=2; plural=(n%(n-10000)!=0);';
    let error: unknown;
    try {
      parse('po', po('de', header, ['a', 'b']));
    } catch (e) {
      error = e;
    }
    // A plain Error('division by zero in plural expression') would be answered 500.
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).msg).toMatch(/^invalid Plural-Forms header: division by zero/);
  });
});

describe('xliff', () => {
  it('an empty <target/> (state="needs-translation") is untranslated, not an empty translation', () => {
    const file = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" target-language="de" datatype="plaintext" original="messages">
    <body>
      <trans-unit id="home.title"><source>Welcome</source><target state="needs-translation"/></trans-unit>
      <trans-unit id="home.body"><source>Text</source><target state="translated">Text DE</target></trans-unit>
    </body>
  </file>
</xliff>`;
    const parsed = parse('xliff', file);
    // Not {key: 'home.title', value: ''}, which would overwrite a stored translation with ''.
    expect(parsed.entries.map((e) => e.key)).toEqual(['home.body']);
    expect(parsed.warnings).toEqual(['1 untranslated unit was skipped (empty <target>)']);
  });

  it('xliff2: an empty <target/> in a segment with state="initial" is untranslated too', () => {
    const file = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="de">
  <file id="f">
    <unit id="home.title"><segment state="initial"><source>Welcome</source><target/></segment></unit>
  </file>
</xliff>`;
    expect(parse('xliff2', file)).toEqual({ entries: [], warnings: ['1 untranslated unit was skipped (empty <target>)'] });
  });
});

describe("xliff: Angular's source file (source-language=\"en-US\", no target-language)", () => {
  const ng12 = (sourceLanguage: string) => `<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="${sourceLanguage}" datatype="plaintext" original="ng2.template">
    <body>
      <trans-unit id="introductionHeader" datatype="html">
        <source>Hello i18n!</source>
        <context-group purpose="location"><context context-type="sourcefile">src/app/app.component.html</context><context context-type="linenumber">4</context></context-group>
        <note priority="1" from="description">An introduction header for this sample</note>
        <note priority="1" from="meaning">User welcome</note>
      </trans-unit>
    </body>
  </file>
</xliff>`;
  const ng20 = (srcLang: string) => `<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="${srcLang}">
  <file id="ngi18n" original="ng.template">
    <unit id="introductionHeader"><notes><note category="description">An introduction header</note></notes><segment><source>Hello i18n!</source></segment></unit>
  </file>
</xliff>`;

  it('imports its sources as the project\'s `en`, saying so (they were all skipped as untranslated)', () => {
    expect(parse('xliff', ng12('en-US'), 'en')).toEqual({
      entries: [expect.objectContaining({ key: 'introductionHeader', value: 'Hello i18n!', description: 'An introduction header for this sample' })],
      warnings: ["the file's source-language is en-US; its sources were imported as en"],
    });
    expect(parse('xliff2', ng20('en-US'), 'en')).toEqual({
      entries: [expect.objectContaining({ key: 'introductionHeader', value: 'Hello i18n!' })],
      warnings: ["the file's srcLang is en-US; its sources were imported as en"],
    });
    // And the other way round: a region-less source into a project's en-US.
    expect(parse('xliff', ng12('en'), 'en-US').entries.map((e) => e.value)).toEqual(['Hello i18n!']);
  });

  it('another region of the language, or another language, is still not its source', () => {
    expect(parse('xliff', ng12('en-US'), 'en-GB')).toEqual({ entries: [], warnings: ['1 unit has no <target> and was skipped'] });
    expect(parse('xliff2', ng20('en-US'), 'de').entries).toEqual([]);
    expect(parse('xliff', ng12('e'), 'en').entries).toEqual([]);
  });
});

describe('through HTTP', () => {
  const t = useTestApp();

  const importFile = (p: Awaited<ReturnType<typeof project>>, language: string, file: string, query: string) =>
    t.app.request(`/v1/import/${language}${query}`, { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/octet-stream' }, body: file });

  it('a PO file whose Plural-Forms divides by zero for large n is refused with 422, not 500', async () => {
    const p = await project(t, ['de']);
    const res = await importFile(p, 'de', po('de', 'nplurals=2; plural=(n%(n-10000)!=0);', ['a', 'b']), '?format=po');
    expect(res.status, await res.clone().text()).toBe(422);
  });

  it('an XLIFF from a CAT tool with an empty <target/> does not wipe the stored translation', async () => {
    const p = await project(t, ['de']);
    expect((await importFile(p, 'de', JSON.stringify({ 'home.title': 'Willkommen' }), '?format=json')).status).toBe(200);
    const xliff = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" target-language="de" datatype="plaintext" original="messages">
    <body>
      <trans-unit id="home.title"><source>Welcome</source><target state="needs-translation"/></trans-unit>
    </body>
  </file>
</xliff>`;
    const res = await importFile(p, 'de', xliff, '?format=xliff');
    expect(res.status, await res.clone().text()).toBe(200);
    const stored = (await body(await p.get('/v1/translations/de?status=all'))).translations['home.title'];
    expect(stored.value).toBe('Willkommen');
  });
});
