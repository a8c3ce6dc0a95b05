// tms keys cannot hold control characters, but a gettext msgid or an Apple .strings key is often the
// source text itself, with its line breaks and tabs. Such an entry is skipped with a warning naming
// it and its line, and the rest of the file is read, as docs/formats.md promises for what a format
// holds and tms does not store. A NUL still refuses the file, and other key problems stay refusals
// at import (core/files/import-file.ts).
import { describe, expect, it } from 'vitest';
import { FORMATS, FormatError } from '../../core/formats/index.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('po', () => {
  it('a message whose msgid or msgctxt holds a line break or tab is skipped and named; the others are read', () => {
    const file = [
      'msgid ""',
      'msgstr "Content-Type: text/plain; charset=UTF-8\\n"',
      '',
      'msgid "Welcome"',
      'msgstr "Willkommen"',
      '',
      '#. wrapped by the developer',
      'msgid ""',
      '"First line\\n"',
      '"second line"',
      'msgstr "Erste Zeile\\nzweite Zeile"',
      '',
      'msgctxt "tab\\there"',
      'msgid "Open"',
      'msgstr "Öffnen"',
      '',
      'msgid "Save"',
      'msgstr "Speichern"',
      '',
    ].join('\n');
    const parsed = FORMATS.po.parse(utf8(file), { language: 'de' });
    expect(parsed.entries).toEqual([
      { key: 'Welcome', value: 'Willkommen' },
      { key: 'Save', value: 'Speichern' },
    ]);
    expect(parsed.warnings).toEqual([
      '2 messages were skipped because tms keys cannot contain line breaks, tabs or other control characters: "First line\\nsecond line" (line 7), "tab\\there|Open" (line 13)',
    ]);
  });

  it('an untranslated or fuzzy message with a line break is counted as such, not twice', () => {
    const parsed = FORMATS.po.parse(utf8('msgid "a\\nb"\nmsgstr ""\n\n#, fuzzy\nmsgid "c\\nd"\nmsgstr "x"\n\nmsgid "e"\nmsgstr "f"\n'), { language: 'de' });
    expect(parsed.entries).toEqual([{ key: 'e', value: 'f' }]);
    expect(parsed.warnings).toEqual([expect.stringMatching(/^1 untranslated message/), expect.stringMatching(/^1 fuzzy message/)]);
  });

  it('a NUL in a msgid still refuses the file at its line', () => {
    expect(() => FORMATS.po.parse(utf8('msgid "a"\nmsgstr "b"\n\nmsgid "c\\000\\nd"\nmsgstr "x"\n'), { language: 'de' })).toThrow(FormatError);
  });
});

describe('ios-strings', () => {
  it('a key with a line break or tab is skipped and named with its line; the others are read', () => {
    const file = '/* Title */\n"title" = "Titel";\n\n"Line one\\nline two" = "Zeile eins\\nZeile zwei";\n"a\tb" = "c";\n"ok" = "OK";\n';
    const parsed = FORMATS['ios-strings'].parse(utf8(file), { language: 'de' });
    expect(parsed.entries).toEqual([
      { key: 'title', value: 'Titel', description: 'Title' },
      { key: 'ok', value: 'OK' },
    ]);
    expect(parsed.warnings).toEqual([
      '2 entries were skipped because tms keys cannot contain line breaks, tabs or other control characters: "Line one\\nline two" (line 4), "a\\tb" (line 5)',
    ]);
  });

  it('many such keys: the first ten are named, and how many more', () => {
    const file = Array.from({ length: 13 }, (_, i) => `"k\\n${i}" = "v";`).join('\n');
    const [warning] = FORMATS['ios-strings'].parse(utf8(file), { language: 'de' }).warnings;
    expect(warning).toMatch(/^13 entries were skipped .*"k\\n9" \(line 10\) and 3 more$/);
  });
});
