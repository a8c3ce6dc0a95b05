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
      { key: 'notes_count', value: '{count, plural, one {# Notiz} other {# Notizen}}' },
      { key: 'weekdays[0]', value: 'Montag' },
      { key: 'weekdays[1]', value: 'Dienstag' },
    ],
    warnings: [/translatable="false".*app_name/],
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
    entries: [{ key: 'notes.count', value: '{notes, plural, one {# Notiz} other {# Notizen}}' }],
    warnings: [],
  },
  {
    format: 'po',
    file: 'messages.po',
    entries: [
      { key: 'Welcome, %s!', value: 'Willkommen, %s!', description: 'Title of the main screen' },
      { key: 'menu|Open', value: 'Öffnen' },
      { key: '%d note', value: '{count, plural, one {# Notiz} other {# Notizen}}' },
      { key: 'A long help text that xgettext wrapped over two lines.', value: 'Ein langer Hilfetext, den xgettext umgebrochen hat.' },
    ],
    // The fuzzy "Save" is not a translation yet, and the obsolete #~ entry is gone from the sources.
    warnings: [/1 fuzzy message was skipped/],
  },
  {
    format: 'i18next',
    file: 'translation.i18next.json',
    entries: [
      { key: 'home.title', value: 'Willkommen, {{name}}!' },
      { key: 'home.notes', value: '{count, plural, one {# Notiz} other {# Notizen}}' },
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
    ],
    warnings: [/placeholders.*homeTitle, notesCount/],
  },
  {
    format: 'yaml',
    file: 'de.yml',
    entries: [
      { key: 'home.title', value: 'Willkommen, %{name}!' },
      { key: 'home.notes', value: '{count, plural, one {# Notiz} other {# Notizen}}' },
      { key: 'activerecord.errors.messages.blank', value: 'muss ausgefüllt werden' },
    ],
    warnings: [],
  },
  {
    format: 'xliff',
    file: 'messages.de.xlf',
    entries: [
      { key: 'homeTitle', value: 'Willkommen, <x id="INTERPOLATION" equiv-text="{{ name }}"/>!', description: 'Title of the main screen' },
      { key: 'save', value: 'Speichern' },
    ],
    warnings: [],
  },
  {
    format: 'xliff2',
    file: 'messages.de.xlf2',
    entries: [{ key: 'homeTitle', value: 'Willkommen!', description: 'Title of the main screen' }],
    warnings: [],
  },
  {
    format: 'csv',
    file: 'sheet.csv',
    entries: [
      { key: 'home.title', value: 'Willkommen, {name}!', description: 'Title of the main screen', group: 'home' },
      { key: 'home.quote', value: 'Er sagte "hallo"', group: 'home' },
    ],
    warnings: [],
  },
];

describe.each(CASES)('$format: $file', ({ format, file, entries, warnings }) => {
  const codec = FORMATS[format];
  const body = readFileSync(new URL(`../fixtures/formats/${file}`, import.meta.url));

  it('reads the exact entries, and says what it skipped', () => {
    const parsed = codec.parse(body, { language: 'de' });
    expect(byKey(parsed.entries)).toEqual(byKey(entries));
    expect(parsed.warnings).toHaveLength(warnings.length);
    warnings.forEach((pattern, i) => expect(parsed.warnings[i]).toMatch(pattern));
  });

  it('what tms writes from it reads back the same', () => {
    const { entries: read } = codec.parse(body, { language: 'de' });
    const source = { language: 'en', values: new Map(read.map((e) => [e.key, `EN ${e.key}`])) };
    const written = codec.serialize(read, { language: 'de', source });
    expect(byKey(codec.parse(written, { language: 'de' }).entries)).toEqual(byKey(read));
  });
});

it('a plural read from one format exports intact to every other format with plurals', () => {
  const plural = FORMATS.android.parse(body('android-strings.xml'), { language: 'de' }).entries.find((e) => e.key === 'notes_count')!;
  for (const format of ['i18next', 'po', 'ios-stringsdict', 'arb', 'yaml', 'xliff', 'xliff2', 'json', 'csv'] as const) {
    const entry = { key: 'notes.count', value: plural.value };
    const source = { language: 'en', values: new Map([[entry.key, '{count, plural, one {# note} other {# notes}}']]) };
    const file = FORMATS[format].serialize([entry], { language: 'de', source });
    expect(FORMATS[format].parse(file, { language: 'de' }).entries.map((e) => e.value), format).toEqual([plural.value]);
  }
});

function body(file: string): Buffer {
  return readFileSync(new URL(`../fixtures/formats/${file}`, import.meta.url));
}
