// Quality checks on placeholders that look like something else: a plain percent sign, ICU whose
// branch is only an argument, i18next placeholders with a format, placeholders in plural and select
// branches other than `other`, and react-i18next's numbered components.
import { describe, expect, it } from 'vitest';
import { checkTranslation, type QualityCheck } from '../../core/quality/check-translation.ts';

const only = (name: QualityCheck, text: string, source: string | null, language = 'de') =>
  checkTranslation({ text, source, language, sourceLanguage: 'en' }).filter((w) => w.check === name);

describe('percent signs', () => {
  it('a percent sign before a word is text, not a printf placeholder: "50 % Rabatt" for "50% off" passes', () => {
    expect(only('placeholders', '50 % Rabatt', '50% off')).toEqual([]);
    expect(only('placeholders', 'Akku bei 20 % Kapazität', 'Battery at 20% capacity')).toEqual([]);
    expect(only('placeholders', 'Zu 100 % sicher', '100% secure')).toEqual([]);
  });

  it('printf conversions are still compared: %s, %1$s, %d, %-5d, %.2f', () => {
    expect(only('placeholders', 'Hallo', 'Hello %s')).toEqual([{ check: 'placeholders', message: 'Missing placeholder %s' }]);
    expect(only('placeholders', '%1$s und', '%1$s and %2$s')).toEqual([{ check: 'placeholders', message: 'Missing placeholder %2$s' }]);
    expect(only('placeholders', '%d Dateien, 50 % Rabatt', '%d files, 50% off')).toEqual([]);
    expect(only('placeholders', 'Breite', 'Width %-5d')).toEqual([{ check: 'placeholders', message: 'Missing placeholder %d' }]);
    expect(only('placeholders', 'Preis %.2f', 'Price %.2f')).toEqual([]);
  });
});

describe('plural and select branches', () => {
  it('a placeholder dropped from a plural branch other than `other` is reported', () => {
    expect(
      only('placeholders', '{n, plural, one {hat # Datei} other {{who} hat # Dateien}}', '{n, plural, one {{who} has # file} other {{who} has # files}}'),
    ).toEqual([{ check: 'placeholders', message: 'Missing placeholder {who} in the one branch of {n}' }]);
  });

  it('a placeholder dropped from a select branch other than `other` is reported', () => {
    expect(
      only('placeholders', '{g, select, male {Er hat dich eingeladen} other {{name} hat dich eingeladen}}', '{g, select, male {{name} invited you} other {{name} invited you}}'),
    ).toEqual([{ check: 'placeholders', message: 'Missing placeholder {name} in the male branch of {g}' }]);
  });

  it("a branch the source lacks is compared with the source's `other`: Russian few and many must keep {who}", () => {
    const source = '{n, plural, one {{who} has # file} other {{who} has # files}}';
    expect(only('placeholders', '{n, plural, one {{who}: # файл} few {{who}: # файла} many {# файлов} other {{who}: # файла}}', source, 'ru')).toEqual([
      { check: 'placeholders', message: 'Missing placeholder {who} in the many branch of {n}' },
    ]);
  });

  it("the plural's own argument is never required in a branch, and # stands for it", () => {
    const source = '{n, plural, =0 {No files} one {One file by {who}} other {{n} files by {who}}}';
    expect(only('placeholders', '{n, plural, =0 {Keine Dateien} one {# Datei von {who}} other {# Dateien von {who}}}', source)).toEqual([]);
    expect(only('placeholders', '{n, plural, =0 {Keine} =1 {Eine Datei von {who}} one {Eine Datei von {who}} other {# Dateien von {who}}}', source)).toEqual([]);
  });

  it("an `other` that drops the count its source's `other` shows is reported; `#` and {n} are the same count", () => {
    const source = '{n, plural, one {# file} other {{n} files}}';
    expect(only('placeholders', '{n, plural, one {Eine Datei} other {Dateien}}', source)).toEqual([{ check: 'placeholders', message: 'Missing placeholder {n} in the other branch of {n}' }]);
    expect(only('placeholders', '{n, plural, one {Eine Datei} other {# Dateien}}', source)).toEqual([]);
    expect(only('placeholders', '{n, plural, one {eine Datei} other {Dateien}}', '{n, plural, one {one file} other {files}}')).toEqual([]);
  });

  it('a dropped placeholder in `other` is reported once, not again for its branch', () => {
    expect(
      only('placeholders', '{n, plural, one {{who} hat # Datei} other {hat # Dateien}}', '{n, plural, one {{who} has # file} other {{who} has # files}}'),
    ).toEqual([{ check: 'placeholders', message: 'Missing placeholder {who}' }]);
  });

  it('branches of a nested plural are compared too', () => {
    const source = '{g, select, male {{n, plural, one {{who}: his file} other {{who}: his # files}}} other {{n, plural, one {{who}: a file} other {{who}: # files}}}}';
    const value = '{g, select, male {{n, plural, one {seine Datei} other {{who}: seine # Dateien}}} other {{n, plural, one {{who}: eine Datei} other {{who}: # Dateien}}}}';
    expect(only('placeholders', value, source)).toEqual([{ check: 'placeholders', message: 'Missing placeholder {who} in the one branch of {n}' }]);
  });
});

describe('ICU whose branch is only an argument', () => {
  it('is checked as ICU: a missing brace is an icu_syntax warning, and Russian plural forms are required', () => {
    const source = '{count, plural, =0 {No items} one {One item} other {{count}}}';
    expect(only('icu_syntax', '{count, plural, =0 {Keine} one {Ein Eintrag} other {{count}}', source)).not.toEqual([]);
    expect(only('plurals', '{count, plural, =0 {Нет} one {Один} other {{count}}}', source, 'ru')).toEqual([
      { check: 'plurals', message: 'The plural of {count} lacks few, many, which ru needs' },
    ]);
    expect(only('placeholders', '{count, plural, =0 {Keine} one {Ein Eintrag} other {{count}}}', source)).toEqual([]);
  });

  it("i18next's double braces are still i18next, not ICU", () => {
    expect(only('icu_syntax', 'Hallo {{name}}', 'Hello {{name}}')).toEqual([]);
    expect(only('placeholders', 'Hallo {{name}}', 'Hello {{name}}')).toEqual([]);
    expect(only('placeholders', 'Hallo', 'Hello {{name}}')).toEqual([{ check: 'placeholders', message: 'Missing placeholder {{name}}' }]);
    expect(only('placeholders', '{{count}} Einträge', '{{count}} items')).toEqual([]);
  });
});

describe('i18next placeholders with a format', () => {
  it('a dropped {{price, currency}} is reported as missing, by its name', () => {
    expect(only('placeholders', 'Gesamt:', 'Total: {{price, currency}}')).toEqual([{ check: 'placeholders', message: 'Missing placeholder {{price}}' }]);
    expect(only('placeholders', 'Am um', 'On {{date, datetime}} at')).not.toEqual([]);
    expect(only('placeholders', 'Gesamt: {{price, currency}}', 'Total: {{price, currency}}')).toEqual([]);
    expect(only('placeholders', 'Gesamt: {{- price, currency(EUR)}}', 'Total: {{price, currency(EUR)}}')).toEqual([]);
  });
});

describe("react-i18next's numbered components", () => {
  it('a dropped or renumbered <0> is reported', () => {
    expect(only('html_tags', 'Klicken Sie hier', 'Click <0>here</0>')).not.toEqual([]);
    expect(only('html_tags', 'Klicken Sie <1>hier</1>', 'Click <0>here</0>')).not.toEqual([]);
    expect(only('html_tags', 'Klicken Sie <0>hier</0>', 'Click <0>here</0>')).toEqual([]);
    expect(only('html_tags', 'Weiter<1/>', 'Continue<1/>')).toEqual([]);
    expect(only('html_tags', '<0>Hier', null)).toEqual([{ check: 'html_tags', message: 'Unbalanced tags: <0> is never closed' }]);
  });

  it('ordinary HTML is still checked, and a comparison such as x<1 and y>2 is no tag', () => {
    expect(only('html_tags', '<i>Fett</i>', '<b>Bold</b>')).not.toEqual([]);
    expect(only('html_tags', '<b>Fett', null)).toEqual([{ check: 'html_tags', message: 'Unbalanced tags: <b> is never closed' }]);
    expect(only('html_tags', 'Wenn x<1 und y>2', 'If x<1 and y>2')).toEqual([]);
  });
});

describe('printf positions against plain conversions', () => {
  it('plain %s … %s reordered as %2$s … %1$s are the same arguments: no warning', () => {
    expect(only('placeholders', '%2$s の %1$s', '%s of %s', 'ja')).toEqual([]);
    expect(only('placeholders', '%2$d Dateien von %1$s', '%s has %d files')).toEqual([]);
  });

  it('a lone %s written %1$s (and the reverse) is the same argument', () => {
    expect(only('placeholders', 'Hallo %1$s', 'Hello %s')).toEqual([]);
    expect(only('placeholders', 'Hallo %s', 'Hello %1$s')).toEqual([]);
  });

  it('positions still check conversions and counts: a swapped type or a lost argument is reported', () => {
    // %s of %d is %1$s of %2$d: the translation gives argument 1 a %d.
    expect(only('placeholders', '%1$d von %2$s', '%s of %d')).toHaveLength(2);
    expect(only('placeholders', 'Hallo %1$s', 'Hello %s and %s')).toEqual([{ check: 'placeholders', message: 'Missing placeholder %2$s' }]);
    // Without positions on either side plain conversions compare as before.
    expect(only('placeholders', '%s von %s', '%s of %s')).toEqual([]);
    expect(only('placeholders', 'Hallo', 'Hello %s')).toEqual([{ check: 'placeholders', message: 'Missing placeholder %s' }]);
  });
});

describe('i18next nesting $t(key)', () => {
  it('a dropped $t(key) is reported as a missing placeholder, by its key', () => {
    expect(only('placeholders', 'ist bereit', '$t(app.name) is ready')).toEqual([{ check: 'placeholders', message: 'Missing placeholder $t(app.name)' }]);
    // The {{count}} its options pass goes with it: that use is missing too.
    expect(only('placeholders', '{{count}} Einträge', '{{count}} $t(items, {"count": {{count}} })')).toEqual([
      { check: 'placeholders', message: 'Missing placeholders $t(items), {{count}}' },
    ]);
  });

  it('a kept $t(key), options and all, passes', () => {
    expect(only('placeholders', '$t(app.name) ist bereit', '$t(app.name) is ready')).toEqual([]);
    expect(only('placeholders', '{{count}} $t(items, { "count": {{count}} })', '{{count}} $t(items, {"count": {{count}} })')).toEqual([]);
  });

  it('in ICU text $t( is literal: not read as a placeholder', () => {
    expect(only('placeholders', 'Hallo {name}', 'Hello {name}, see $t(help)')).toEqual([]);
  });
});
