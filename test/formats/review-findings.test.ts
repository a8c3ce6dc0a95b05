// Review findings on the format codecs: each test states the behaviour a user needs and fails
// against the current code (see the review report). Codec-level, plus two through HTTP.
import { describe, expect, it } from 'vitest';
import { FORMATS, FormatError } from '../../core/formats/index.ts';
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
    // Today the item is stored as the text "@string/mercury" and written back escaped, so the app
    // shows the literal text "@string/mercury" instead of "Merkur".
    expect(out).not.toContain('\\@string/mercury');
  });
});

describe('printf plural dialects (android, po, stringsdict)', () => {
  it('%% in an Android plural item is a percent sign in the stored ICU value and in i18next', () => {
    const file = '<resources><plurals name="done"><item quantity="one">%d%% erledigt</item><item quantity="other">%d%% erledigt</item></plurals></resources>';
    const out = JSON.parse(write('i18next', parse('android', file).entries));
    // Today: "{{count}}%% erledigt", which i18next shows with two percent signs.
    expect(out.done_other).toBe('{{count}}% erledigt');
  });

  it('a % in an i18next plural form is written %% in Android plural items', () => {
    const file = JSON.stringify({ done_one: '{{count}}% erledigt', done_other: '{{count}}% erledigt' });
    const out = write('android', parse('i18next', file).entries);
    // Today: "%d% erledigt": getQuantityString() throws (java.util.Formatter reads "% e" as a conversion).
    expect(out).toContain('<item quantity="other">%d%% erledigt</item>');
  });

  it("an Android plural counting with %1$d gives i18next a {{count}}", () => {
    const file = '<resources><plurals name="songs"><item quantity="one">%1$d Lied</item><item quantity="other">%1$d Lieder</item></plurals></resources>';
    const out = JSON.parse(write('i18next', parse('android', file).entries));
    // Today: "%1$d Lieder" (the count is not recognized, so no # is stored).
    expect(out.songs_other).toBe('{{count}} Lieder');
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
    // Today the format key becomes the raw ICU text "{files, plural, one {%lld file} ...}" and iOS shows it.
    expect(out).toContain('NSStringPluralRuleType');
  });
});

describe('po plurals', () => {
  it('a 4-form Polish header (Transifex) keeps the fraction form msgstr[3], or says it was dropped', () => {
    const header = 'nplurals=4; plural=(n==1 ? 0 : (n%10>=2 && n%10<=4) && (n%100<12 || n%100>14) ? 1 : n!=1 && (n%10>=0 && n%10<=1) || (n%10>=5 && n%10<=9) || (n%100>=12 && n%100<=14) ? 2 : 3);';
    const parsed = parse('po', po('pl', header, ['%d plik', '%d pliki', '%d plików', '%d pliku']), 'pl');
    const value = parsed.entries[0]?.value ?? '';
    // Today: {count, plural, one {# plik} few {# pliki} many {# plików} other {# plików}} and no warning.
    expect(value.includes('# pliku') || parsed.warnings.some((w) => w.includes('msgstr[3]'))).toBe(true);
  });

  it('a French PO with the 3-form CLDR header (one, many, other) exports as a plural message again', () => {
    const header = 'nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;';
    const parsed = parse('po', po('fr', header, ['%d fichier', '%d de fichiers', '%d fichiers']), 'fr');
    expect(parsed.entries[0]?.value).toBe('{count, plural, one {# fichier} many {# de fichiers} other {# fichiers}}');
    const out = write('po', parsed.entries, 'fr');
    // Today: `msgstr "{count, plural, one {# fichier} many {...} other {...}}"`, which ngettext() returns as is.
    expect(out).toContain('msgid_plural');
    expect(out).not.toContain('msgstr "{count, plural');
  });

  it('i18next French plurals with _many (as i18next-parser writes them) export to PO as a plural message', () => {
    const file = JSON.stringify({ files_one: '{{count}} fichier', files_many: '{{count}} de fichiers', files_other: '{{count}} fichiers' });
    const out = write('po', parse('i18next', file, 'fr').entries, 'fr');
    expect(out).toContain('msgid_plural');
  });

  it('a Plural-Forms formula that divides by zero past n = 1000 is a FormatError, not a plain Error', () => {
    const header = 'nplurals=2; plural=(n%(n-10000)!=0);';
    let error: unknown;
    try {
      parse('po', po('de', header, ['a', 'b']));
    } catch (e) {
      error = e;
    }
    // Today: Error('division by zero in plural expression'), which the import endpoint answers 500.
    expect(error).toBeInstanceOf(FormatError);
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
    // Today: [{key: 'home.title', value: ''}, ...], which overwrites a stored translation with ''.
    expect(parsed.entries.map((e) => e.key)).toEqual(['home.body']);
  });

  it('xliff2: an empty <target/> in a segment with state="initial" is untranslated too', () => {
    const file = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="de">
  <file id="f">
    <unit id="home.title"><segment state="initial"><source>Welcome</source><target/></segment></unit>
  </file>
</xliff>`;
    expect(parse('xliff2', file).entries).toEqual([]);
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
