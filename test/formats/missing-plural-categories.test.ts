// An ICU plural says with `other` every category it leaves out; i18next does not fall back to
// `_other` (Translator.resolve looks up `key_few`, then `key`), and the Ruby i18n gem before 1.13
// raises InvalidPluralizationData for a count whose category key is missing. So the i18next and
// Rails YAML exports write each of the language's categories (those a value lacks with its `other`
// text); their imports keep every form, and an import compares values by what they say
// (test/files/every-category-import.test.ts). A Russian plural with only
// one/other (an English-shaped Android or Rails file, or a value typed in the portal) exported as
// files_one/files_other made i18next show the key name for 3 or 5 files. Checked with the real i18next.
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { FORMATS } from '../../core/formats/index.ts';
import { sayTheSame } from '../../core/formats/plural/every-category.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

async function translate(resources: object, lng: string, count: number): Promise<string> {
  const i18n = i18next.createInstance();
  await i18n.init({ lng, fallbackLng: false, resources: { [lng]: { translation: resources } }, interpolation: { escapeValue: false } });
  return i18n.t('files', { count });
}

describe('i18next export of plurals that leave categories to other', () => {
  it('the export of an ICU one/other plural reads in i18next as ICU reads it', async () => {
    const icu = '{count, plural, one {# файл} other {# файлов}}';
    const file = JSON.parse(dec(FORMATS.i18next.serialize([{ key: 'files', value: icu }], { language: 'ru' })));
    // What ICU (and Android, iOS) say for these counts: 1 one, 3 few -> other, 5 many -> other.
    expect(await translate(file, 'ru', 1)).toBe('1 файл');
    expect(await translate(file, 'ru', 3)).toBe('3 файлов');
    expect(await translate(file, 'ru', 5)).toBe('5 файлов');
  });

  it('a Russian Android <plurals> with one and other exports to an i18next file that has every count', async () => {
    const android = '<resources><plurals name="files"><item quantity="one">%d файл</item><item quantity="other">%d файлов</item></plurals></resources>';
    const entries = FORMATS.android.parse(enc(android), { language: 'ru' }).entries;
    const file = JSON.parse(dec(FORMATS.i18next.serialize(entries, { language: 'ru' })));
    expect(await translate(file, 'ru', 22)).toBe('22 файлов');
  });

  it('reads back as the same plural with every category; a file\'s forms are all kept, a few equal to other too', () => {
    for (const [language, value] of [
      ['ru', '{count, plural, one {# файл} other {# файлов}}'],
      ['ar', '{count, plural, zero {لا ملفات} one {ملف} other {# ملفات}}'],
      ['en', '{count, plural, =0 {No files} other {# files}}'],
    ] as const) {
      const out = FORMATS.i18next.serialize([{ key: 'files', value }], { language });
      const [read] = FORMATS.i18next.parse(out, { language }).entries;
      expect(sayTheSame(read!.value, value, language), `${language}: ${read!.value}`).toBe(true);
      // Written again, the same file.
      expect(dec(FORMATS.i18next.serialize([read!], { language }))).toBe(dec(out));
    }
    // i18next-parser's Russian: `other` (fractions) is often the same word as `few`; both are kept.
    const file = { files_one: '{{count}} файл', files_few: '{{count}} файла', files_many: '{{count}} файлов', files_other: '{{count}} файла' };
    const [entry] = FORMATS.i18next.parse(enc(JSON.stringify(file)), { language: 'ru' }).entries;
    expect(entry?.value).toBe('{count, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}');
    expect(JSON.parse(dec(FORMATS.i18next.serialize([entry!], { language: 'ru' })))).toEqual(file);
  });

  it('ordinals too: i18next looks up place_ordinal_two and shows the key without it', async () => {
    const value = '{n, selectordinal, one {#st} other {#th}}';
    const file = JSON.parse(dec(FORMATS.i18next.serialize([{ key: 'place', value }], { language: 'en' })));
    expect(file).toEqual({ place_ordinal_one: '{{count}}st', place_ordinal_two: '{{count}}th', place_ordinal_few: '{{count}}th', place_ordinal_other: '{{count}}th' });
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en', fallbackLng: false, resources: { en: { translation: file } } });
    expect(i18n.t('place', { count: 2, ordinal: true })).toBe('2th');
    const [read] = FORMATS.i18next.parse(enc(JSON.stringify(file)), { language: 'en' }).entries;
    expect(read?.value).toBe('{count, selectordinal, one {#st} two {#th} few {#th} other {#th}}');
    expect(sayTheSame(read!.value, '{count, selectordinal, one {#st} other {#th}}', 'en')).toBe(true);
  });
});

describe('rails yaml export of plurals that leave categories to other', () => {
  const yaml = (entries: { key: string; value: string }[], language: string) => dec(FORMATS.yaml.serialize(entries, { language }));

  it('writes every category of the language, those the value lacks with its other text', () => {
    const out = yaml([{ key: 'files', value: '{count, plural, one {# файл} other {# файлов}}' }], 'ru');
    expect(out).toBe(['ru:', '  files:', '    one: "%{count} файл"', '    few: "%{count} файлов"', '    many: "%{count} файлов"', '    other: "%{count} файлов"', ''].join('\n'));
  });

  it('reads back as the same plural; an English zero (=0) stays', () => {
    for (const [language, value] of [
      ['ru', '{count, plural, one {# файл} other {# файлов}}'],
      ['en', '{count, plural, =0 {No files} other {# files}}'],
      ['de', '{count, plural, other {# Mal}}'],
    ] as const) {
      const out = FORMATS.yaml.serialize([{ key: 'files', value }], { language });
      const [read] = FORMATS.yaml.parse(out, { language }).entries;
      expect(sayTheSame(read!.value, value, language), `${language}: ${read!.value}`).toBe(true);
    }
    const file = ['en:', '  files:', '    zero: "%{count} files"', '    one: "%{count} files"', '    other: "%{count} files"', ''].join('\n');
    expect(FORMATS.yaml.parse(enc(file), { language: 'en' }).entries).toEqual([{ key: 'files', value: '{count, plural, =0 {# files} one {# files} other {# files}}' }]);
  });
});
