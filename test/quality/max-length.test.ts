// The max_length check (docs/quality.md): a key's character limit against each of its values,
// measured as a translator reads the value in the box: graphemes as written, placeholders included,
// an ICU plural or select by its longest branch.
import { describe, expect, it } from 'vitest';
import { checkTranslation, warningsOf } from '../../core/quality/check-translation.ts';
import { shownLength } from '../../core/quality/max-length.ts';

const limited = (text: string, maxLength: number | null, language = 'de', source: string | null = null) =>
  checkTranslation({ text, language, source, sourceLanguage: 'en', maxLength }).filter((w) => w.check === 'max_length');

describe('shownLength', () => {
  it('counts graphemes as written', () => {
    expect(shownLength('Speichern')).toBe(9);
    // An emoji with its skin tone, a flag and a letter with a combining mark are one character each.
    expect(shownLength('👍🏽🇩🇪e\u0301')).toBe(3);
    expect(shownLength('保存する')).toBe(4);
    // Placeholders count as written: tms cannot know what the app puts there.
    expect(shownLength('Hallo {name}')).toBe(12);
    expect(shownLength('Hallo {{name}}, %1$s')).toBe(20);
  });

  it('measures a plural or select by its longest branch, nested ones too', () => {
    expect(shownLength('{n, plural, one {# Datei} other {# Dateien hier}}')).toBe(14);
    expect(shownLength('Hi {name}, {n, plural, one {one message} other {{n} new messages}}!')).toBe(11 + 16 + 1);
    expect(shownLength('{g, select, female {{n, plural, one {x} other {abcdefghij}}} other {short}}')).toBe(10);
    expect(shownLength('{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th place}}')).toBe(9);
  });

  it('measures a value ICU cannot parse as written', () => {
    expect(shownLength('{n, plural, one {a')).toBe(18);
  });
});

describe('the max_length check', () => {
  it('warns over the limit, not at it, and never without one', () => {
    expect(limited('Speichern', 9)).toEqual([]);
    expect(limited('Speichern!', 9)).toEqual([{ check: 'max_length', message: "10 characters, over the key's limit of 9" }]);
    expect(limited('Speichern und schließen, sehr lang', null)).toEqual([]);
  });

  it('names the longest form of a plural', () => {
    expect(limited('{n, plural, one {# Datei} other {# Dateien}}', 9)).toEqual([]);
    expect(limited('{n, plural, one {# Datei} other {# Dateien hier}}', 9)).toEqual([
      { check: 'max_length', message: "14 characters (its longest form), over the key's limit of 9" },
    ]);
  });

  it('holds in the source language too, where the other checks need a source', () => {
    expect(warningsOf({ text: 'Save and close', language: 'en', source: 'Save and close', sourceLanguage: 'en', maxLength: 10 }).map((w) => w.check)).toEqual([
      'max_length',
    ]);
  });

  it('stands beside the ratio check, which compares with the source', () => {
    const checks = checkTranslation({ text: 'Speichern und dann noch sehr viel mehr Text', language: 'de', source: 'Save', sourceLanguage: 'en', maxLength: 20 }).map(
      (w) => w.check,
    );
    expect(checks).toEqual(['length', 'max_length']);
  });
});
