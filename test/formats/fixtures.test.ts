// Files in the shape the tools teams use emit them (test/fixtures/formats): Android Studio's
// strings.xml, Xcode's UTF-16 .strings and .stringsdict, xgettext/msgmerge PO, i18next v4, Flutter
// gen-l10n ARB, Rails YAML, Angular's XLIFF 1.2 and 2.0, a Google Sheets CSV. Each is read to the
// exact entries and warnings below, and what tms writes from them reads back the same.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/formats/index.ts';
import type { Entry, FormatId } from '../../core/formats/types.ts';
import { byKey } from './support/arbitraries.ts';

type Case = { format: FormatId; file: string; entries: Entry[]; warnings: RegExp[] };

const CASES: Case[] = [
  {
    format: 'android',
    file: 'android-strings.xml',
    entries: [
      { key: 'home_title', value: 'Willkommen, %1$s!', description: 'Title of the main screen' },
      // xliff:g marks text translators must keep: kept verbatim, as Android Studio shows it.
      { key: 'home_subtitle', value: 'Du hast <xliff:g id="count" example="3">%2$d</xliff:g> neue Notizen' },
      { key: 'apostrophe', value: 'Das ist\'s: "zitiert" und ein\nZeilenumbruch' },
      { key: 'html', value: '<b>Fett</b> & <i>kursiv</i>' },
      // \@ is a literal at sign; unescaped, @string/home_title is a reference (skipped, see warnings).
      { key: 'handle', value: '@notely auf Mastodon' },
      // Quotes keep the spaces Android would otherwise collapse.
      { key: 'padded', value: '  zwei Leerzeichen davor' },
      { key: 'notes_count', value: '{count, plural, one {# Notiz} other {# Notizen}}', description: 'Number of notes in the list header' },
      { key: 'weekdays[0]', value: 'Montag' },
      { key: 'weekdays[1]', value: 'Dienstag' },
      { key: 'later', value: 'Später' },
      // The TODO comment trails `later` on its line: it is not the description of `done`.
      { key: 'done', value: 'Fertig' },
    ],
    warnings: [/translatable="false".*app_name/, /resource references.*share_title/],
  },
  {
    format: 'ios-strings',
    file: 'Localizable.strings',
    entries: [
      { key: 'home.title', value: 'Willkommen, %@!', description: 'Title of the main screen' },
      { key: 'home.quote', value: 'Er sagte "hallo"\n', description: 'No comment provided by engineer.' },
      { key: 'emoji', value: 'Gut gemacht 👋 é' },
    ],
    warnings: [],
  },
  {
    format: 'ios-stringsdict',
    file: 'Localizable.stringsdict',
    entries: [
      { key: 'notes.count', value: '{notes, plural, one {# Notiz} other {# Notizen}}' },
      // Two variables in one format; `zero` is a count of 0 (=0) in German, which has no zero category.
      {
        key: 'notes.summary',
        value: 'Du hast {notes, plural, =0 {keine Notizen} one {eine Notiz} other {# Notizen}} in {folders, plural, one {einem Ordner} other {# Ordnern}}.',
      },
    ],
    warnings: [],
  },
  {
    format: 'po',
    file: 'messages.po',
    entries: [
      { key: 'Welcome, %s!', value: 'Willkommen, %s!', description: 'Title of the main screen' },
      { key: 'menu|Open', value: 'Öffnen' },
      { key: '%d note', value: '{count, plural, one {# Notiz} other {# Notizen}}' },
      {
        key: 'A long help text that xgettext wrapped over two lines because it is longer than the line width.',
        value: 'Ein langer Hilfetext, den xgettext auf zwei Zeilen umbrochen hat, weil er länger als die Zeilenbreite ist.',
        description: 'TRANSLATORS: shown in the help dialog;\nkeep it short.',
      },
    ],
    // "Settings" has no translation yet, msgmerge marked "Save" fuzzy, and the obsolete #~ entry is
    // gone from the sources: none is a translation (msgfmt skips them too).
    warnings: [/1 untranslated message was skipped/, /1 fuzzy message was skipped/],
  },
  {
    format: 'i18next',
    file: 'translation.i18next.json',
    entries: [
      { key: 'home.title', value: 'Willkommen, {{name}}!' },
      { key: 'home.notes', value: '{count, plural, =0 {Keine Notizen} one {# Notiz} other {# Notizen}}' },
      // Contexts are ordinary keys; German ordinals have only `other`.
      { key: 'friend_male', value: 'Ein Freund' },
      { key: 'friend_female', value: 'Eine Freundin' },
      { key: 'place', value: '{count, selectordinal, other {#.}}' },
      { key: 'nested.deep.key', value: 'Tief $t(home.title)' },
    ],
    warnings: [],
  },
  {
    format: 'arb',
    file: 'app_de.arb',
    entries: [
      { key: 'homeTitle', value: 'Willkommen, {name}!', description: 'Title of the main screen' },
      { key: 'notesCount', value: '{count, plural, =0{Keine Notizen} =1{Eine Notiz} other{{count} Notizen}}', description: 'Number of notes' },
      { key: 'pronoun', value: '{gender, select, male{er} female{sie} other{es}}' },
      { key: 'lastSaved', value: 'Zuletzt gespeichert: {date}', description: 'When the note was last saved' },
    ],
    warnings: [/placeholders.*homeTitle, notesCount, pronoun, lastSaved/],
  },
  {
    format: 'yaml',
    file: 'de.yml',
    entries: [
      { key: 'activerecord.errors.messages.blank', value: 'muss ausgefüllt werden' },
      { key: 'activerecord.errors.messages.too_long', value: '{count, plural, one {ist zu lang (mehr als 1 Zeichen)} other {ist zu lang (mehr als # Zeichen)}}' },
      { key: 'date.formats.default', value: '%d.%m.%Y' },
      { key: 'number.format.delimiter', value: '.' },
      { key: 'home.title', value: 'Willkommen, %{name}!' },
      { key: 'home.notes', value: '{count, plural, =0 {Keine Notizen} one {# Notiz} other {# Notizen}}' },
      { key: 'home.confirm', value: 'Ja' },
    ],
    // rails-i18n's lists and numbers are not translations: named and skipped, not a refused file.
    warnings: [/not read as text were skipped.*date\.day_names \(a list\), number\.format\.precision \(3\)$/],
  },
  {
    format: 'xliff',
    file: 'messages.de.xlf',
    entries: [
      // The meaning note is not the description; Angular's ICU plural stays in Angular's own shape.
      { key: 'homeTitle', value: 'Willkommen, <x id="INTERPOLATION" equiv-text="{{ name }}"/>!', description: 'Title of the main screen' },
      {
        key: 'notesCount',
        value: '{VAR_PLURAL, plural, =0 {keine Notizen} =1 {eine Notiz} other {<x id="INTERPOLATION" equiv-text="{{ count }}"/> Notizen}}',
      },
      { key: 'save', value: 'Speichern & schließen' },
    ],
    warnings: [/1 unit has no <target> and was skipped/],
  },
  {
    format: 'xliff2',
    file: 'messages.de.xlf2',
    entries: [
      { key: 'homeTitle', value: 'Willkommen, <ph id="0" equiv="INTERPOLATION" disp="{{ name }}"/>!', description: 'Title of the main screen' },
      {
        key: 'clickHere',
        value: 'Klicke <pc id="0" equivStart="START_BOLD_TEXT" equivEnd="CLOSE_BOLD_TEXT" type="fmt" dispStart="&lt;b&gt;" dispEnd="&lt;/b&gt;">hier</pc>',
      },
    ],
    warnings: [],
  },
  {
    format: 'csv',
    file: 'sheet.csv',
    entries: [
      { key: 'home.title', value: 'Willkommen, {name}!', description: 'Title of the main screen', group: 'home' },
      { key: 'home.quote', value: 'Er sagte "hallo"', group: 'home' },
      // A cell with a line break: LF inside the quotes, CRLF between rows, as Sheets writes it.
      { key: 'help.body', value: 'Zeile eins\nZeile zwei', description: 'Shown in the help dialog' },
    ],
    warnings: [],
  },
];

function body(file: string): Buffer {
  return readFileSync(new URL(`../fixtures/formats/${file}`, import.meta.url));
}

describe.each(CASES)('$format: $file', ({ format, file, entries, warnings }) => {
  const codec = FORMATS[format];

  it('reads the exact entries, and says what it skipped', () => {
    const parsed = codec.parse(body(file), { language: 'de' });
    expect(byKey(parsed.entries)).toEqual(byKey(entries));
    expect(parsed.warnings).toHaveLength(warnings.length);
    warnings.forEach((pattern, i) => expect(parsed.warnings[i]).toMatch(pattern));
  });

  it('what tms writes from it reads back the same, and writing that again gives the same bytes', () => {
    const { entries: read } = codec.parse(body(file), { language: 'de' });
    // XLIFF's source side; the tables (csv) would write it in a column of their own.
    const source = codec.needsSource ? { language: 'en', values: new Map(read.map((e) => [e.key, `EN ${e.key}`])) } : undefined;
    const written = codec.serialize(read, { language: 'de', ...(source ? { source } : {}) });
    const reread = codec.parse(written, { language: 'de' });
    expect(byKey(reread.entries)).toEqual(byKey(read));
    expect(reread.warnings).toEqual([]);
    expect(Buffer.from(codec.serialize(reread.entries, { language: 'de', ...(source ? { source } : {}) })).toString()).toBe(Buffer.from(written).toString());
  });
});

it('the fixtures keep the encodings the tools use: UTF-16LE with a BOM from Xcode, a BOM and CRLF from Sheets', () => {
  expect([...body('Localizable.strings').subarray(0, 4)]).toEqual([0xff, 0xfe, 0x2f, 0x00]);
  const csv = body('sheet.csv');
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(csv.toString()).toMatch(/value\r\n/);
});

it('a plural read from one format exports intact to every other format with plurals', () => {
  const plural = FORMATS.android.parse(body('android-strings.xml'), { language: 'de' }).entries.find((e) => e.key === 'notes_count');
  expect(plural?.value).toBe('{count, plural, one {# Notiz} other {# Notizen}}');
  for (const format of ['i18next', 'po', 'ios-stringsdict', 'arb', 'yaml', 'xliff', 'xliff2', 'json', 'csv', 'android', 'ios-strings', 'json-nested'] as const) {
    const entry = { key: 'notes.count', value: plural?.value ?? '' };
    const source = { language: 'en', values: new Map([[entry.key, '{count, plural, one {# note} other {# notes}}']]) };
    const file = FORMATS[format].serialize([entry], { language: 'de', source });
    expect(FORMATS[format].parse(file, { language: 'de' }).entries.map((e) => e.value), format).toEqual([plural?.value]);
  }
});
