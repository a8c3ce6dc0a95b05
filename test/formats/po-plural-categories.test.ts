// ICU needs only `other`; a category a plural leaves out is said by `other` (ICU, Android, iOS and
// i18next exports all give it that text). A Russian plural with only one/other (what an
// English-shaped Android or i18next file gives) is a plural to every format with plurals, and PO
// wrote the ICU source as a plain msgstr under a msgid without msgid_plural: ngettext() then has no
// plural forms for it and the app shows `{count, plural, ...}` to users. Now each slot's category
// the value lacks gets `other`'s text; import keeps every form it reads, and an import compares a
// value with the stored one by what they say (test/files/every-category-import.test.ts).
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/formats/index.ts';
import type { Entry } from '../../core/formats/types.ts';
import { sayTheSame } from '../../core/formats/plural/every-category.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const writePo = (entries: Entry[], language: string) => dec(FORMATS.po.serialize(entries, { language }));

describe('po export of plurals that leave categories to other', () => {
  it('a Russian one/other plural from Android is a plural message, few and many saying what other says', () => {
    const android = '<resources><plurals name="files"><item quantity="one">%d файл</item><item quantity="other">%d файлов</item></plurals></resources>';
    const entries = FORMATS.android.parse(enc(android), { language: 'ru' }).entries;
    const out = writePo(entries, 'ru');
    expect(out).not.toContain('{count, plural');
    expect(out).toContain('msgid_plural "files"');
    expect(out).toContain('msgstr[0] "%d файл"');
    expect(out).toContain('msgstr[1] "%d файлов"');
    expect(out).toContain('msgstr[2] "%d файлов"');
  });

  it('a German plural with only other is a plural message', () => {
    const out = writePo([{ key: 'files', value: '{count, plural, other {# Dateien}}' }], 'de');
    expect(out).not.toContain('{count, plural');
    expect(out).toContain('msgstr[0] "%d Dateien"');
    expect(out).toContain('msgstr[1] "%d Dateien"');
  });

  it('what it writes reads back as the same plural, every slot a form of its own', () => {
    const values: [string, string, string][] = [
      ['ru', '{count, plural, one {# файл} other {# файлов}}', '{count, plural, one {# файл} few {# файлов} many {# файлов} other {# файлов}}'],
      ['ru', '{count, plural, other {# шт.}}', '{count, plural, one {# шт.} few {# шт.} many {# шт.} other {# шт.}}'],
      ['de', '{count, plural, other {# Dateien}}', '{count, plural, one {# Dateien} other {# Dateien}}'],
      ['cy', '{count, plural, one {# ffeil} other {# ffeiliau}}', '{count, plural, zero {# ffeiliau} one {# ffeil} two {# ffeiliau} few {# ffeiliau} many {# ffeiliau} other {# ffeiliau}}'],
    ];
    for (const [language, value, read] of values) {
      const out = writePo([{ key: 'files', value }], language);
      expect(out, `${language} ${value}`).toContain('msgid_plural');
      expect(FORMATS.po.parse(enc(out), { language }).entries, `${language} ${value}`).toEqual([{ key: 'files', value: read }]);
      expect(sayTheSame(read, value, language)).toBe(true);
    }
  });

  it('a Russian PO whose forms all differ keeps every one: the last, which other copies, is many', () => {
    const file = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', '"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"', '', 'msgid "%d file"', 'msgid_plural "%d files"', 'msgstr[0] "%d файл"', 'msgstr[1] "%d файла"', 'msgstr[2] "%d файлов"', ''].join('\n');
    const [entry] = FORMATS.po.parse(enc(file), { language: 'ru' }).entries;
    expect(entry?.value).toBe('{count, plural, one {# файл} few {# файла} many {# файлов} other {# файлов}}');
    expect(writePo([entry!], 'ru')).toContain('msgstr[2] "%d файлов"');
  });

  it('a form equal to other is kept: it may be the translator\'s word for that count', () => {
    const file = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"', '', 'msgid "%d time"', 'msgid_plural "%d times"', 'msgstr[0] "%d Mal"', 'msgstr[1] "%d Mal"', ''].join('\n');
    expect(FORMATS.po.parse(enc(file), { language: 'de' }).entries).toEqual([{ key: '%d time', value: '{count, plural, one {# Mal} other {# Mal}}' }]);
  });
});
