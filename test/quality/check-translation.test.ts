import { describe, expect, it } from 'vitest';
import { checkTranslation, pluralCategories, type QualityCheck } from '../../core/quality/check-translation.ts';

const check = (text: string, source: string | null, language = 'de', sourceLanguage = 'en') =>
  checkTranslation({ text, source, language, sourceLanguage });
const checks = (text: string, source: string | null, language = 'de') => check(text, source, language).map((w) => w.check);
const only = (name: QualityCheck, text: string, source: string | null, language = 'de') =>
  check(text, source, language).filter((w) => w.check === name);

describe('quality checks', () => {
  it('a faithful translation has no warnings, in every placeholder family', () => {
    expect(check('Hallo {name}!', 'Hello {name}!')).toEqual([]);
    expect(check('Hallo {{name}}!', 'Hello {{name}}!')).toEqual([]);
    expect(check('%1$@ hat %2$d Nachrichten.', '%1$@ has %2$d messages.')).toEqual([]);
    expect(check('%s von %s', '%s of %s')).toEqual([]);
    expect(check('100%% sicher', '100%% sure')).toEqual([]);
    expect(check('<b>Fett</b> und <br/> Umbruch', '<b>Bold</b> and <br> break')).toEqual([]);
    expect(check('{count, plural, one {# Datei} other {# Dateien}}', '{count, plural, one {# file} other {# files}}')).toEqual([]);
  });

  it('ICU syntax: a broken brace is reported with where it breaks', () => {
    const [w] = only('icu_syntax', 'Hallo {name', 'Hello {name}');
    expect(w?.message).toMatch(/EXPECT_ARGUMENT_CLOSING_BRACE at character 7/);
    expect(only('icu_syntax', '{count, plural, one {# Datei}}', '{count, plural, one {# file} other {# files}}')).toHaveLength(1);
    // Plain text and i18next's double braces are not ICU.
    expect(only('icu_syntax', 'Hallo {{name}}', 'Hello {{name}}')).toEqual([]);
    expect(only('icu_syntax', 'Hallo', 'Hello')).toEqual([]);
  });

  it('placeholders: missing and surplus ones, positional printf kept apart', () => {
    expect(only('placeholders', 'Hallo!', 'Hello {name}!').map((w) => w.message)).toEqual(['Missing placeholder {name}']);
    expect(only('placeholders', 'Hallo {name} {extra}', 'Hello {name}').map((w) => w.message)).toEqual(['Placeholder not in the source: {extra}']);
    expect(only('placeholders', '%1$s und %1$s', '%1$s and %2$s')).toHaveLength(2);
    expect(only('placeholders', 'Hallo %@', 'Hello %s')).toHaveLength(2);
    expect(only('placeholders', 'Hallo {{nom}}', 'Hello {{name}}')).toHaveLength(2);
    // Arguments inside plural branches count once per plural, not once per branch.
    expect(only('placeholders', '{n, plural, one {{who}: # Datei} other {{who}: # Dateien}}', '{n, plural, one {{who}: # file} other {{who}: # files}}')).toEqual([]);
  });

  it("plurals: every category the target language needs, and the source's plural kept", () => {
    // In CLDR order on every Node: ICU's own listing order differs between Node 20 and 24.
    expect(pluralCategories('ru')).toEqual(['one', 'few', 'many', 'other']);
    expect(pluralCategories('en', true)).toEqual(['one', 'two', 'few', 'other']);
    expect(pluralCategories('ar')).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
    const [ru] = only('plurals', '{n, plural, one {# файл} other {# файлов}}', '{n, plural, one {# file} other {# files}}', 'ru');
    expect(ru?.message).toMatch(/lacks few, many/);
    expect(only('plurals', '{n, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}', '{n, plural, one {# file} other {# files}}', 'ru')).toEqual([]);
    // Japanese needs only "other"; a surplus "one" is harmless.
    expect(only('plurals', '{n, plural, other {#件}}', '{n, plural, one {# item} other {# items}}', 'ja')).toEqual([]);
    expect(only('plurals', '{n} Dateien', '{n, plural, one {# file} other {# files}}').map((w) => w.message)).toEqual(['The source pluralizes {n}, this does not']);
    expect(pluralCategories('not a language')).toEqual(['other']);
    // A well-formed code the runtime has no rules for gets the root rules, not the host's locale.
    expect(pluralCategories('xx')).toEqual(['other']);
  });

  it('HTML tags: balanced, and the same ones as the source', () => {
    expect(only('html_tags', '<b>Fett', '<b>Bold</b>').map((w) => w.message)).toEqual(['Unbalanced tags: <b> is never closed']);
    expect(only('html_tags', '<b>Fett</i>', '<b>Bold</b>')[0]?.message).toMatch(/<b> is closed by <\/i>/);
    expect(only('html_tags', '<i>Fett</i>', '<b>Bold</b>')[0]?.message).toMatch(/Tags differ/);
    expect(only('html_tags', '<link>Hier</link> klicken', '<link>Click</link> here')).toEqual([]);
    expect(only('html_tags', 'a < b und c > d', 'a < b and c > d')).toEqual([]);
  });

  it('whitespace at the edges', () => {
    expect(only('whitespace', 'Name:', 'Name: ').map((w) => w.message)).toEqual(['The source ends with whitespace, this does not']);
    expect(only('whitespace', ' Name', 'Name').map((w) => w.message)).toEqual(['Starts with whitespace, the source does not']);
  });

  it('final punctuation by meaning, across scripts', () => {
    expect(only('punctuation', 'Gespeichert', 'Saved.')[0]?.message).toBe('The source ends with a period, this without one');
    expect(only('punctuation', 'Sind Sie sicher.', 'Are you sure?')[0]?.message).toBe('The source ends with a question mark, this with a period');
    // Each mark with its own article.
    expect(only('punctuation', 'Gespeichert!', 'Saved')[0]?.message).toBe('Ends with an exclamation mark, the source does not');
    expect(only('punctuation', 'Warte…', 'Wait!')[0]?.message).toBe('The source ends with an exclamation mark, this with an ellipsis');
    expect(only('punctuation', '保存しました。', 'Saved.', 'ja')).toEqual([]);
    expect(only('punctuation', '¿Seguro?', 'Sure?', 'es')).toEqual([]);
    expect(only('punctuation', 'هل أنت متأكد؟', 'Are you sure?', 'ar')).toEqual([]);
    expect(only('punctuation', 'บันทึกแล้ว', 'Saved.', 'th')).toEqual([]);
    expect(only('punctuation', '„Speichern“', '"Save"')).toEqual([]);
  });

  it('length: far longer than the source', () => {
    expect(only('length', 'Speichern und schließen und dann noch sehr viel mehr Text dazu', 'Save')).toHaveLength(1);
    expect(only('length', 'Speichern', 'Save')).toEqual([]);
    // Graphemes, not UTF-16 units.
    expect(only('length', '👍🏽👍🏽👍🏽', 'OK')).toEqual([]);
  });

  it('without a source value only what the value shows by itself is checked', () => {
    expect(checks('Hallo {name', null)).toEqual(['icu_syntax']);
    expect(checks('<b>x', null)).toEqual(['html_tags']);
    expect(checks('{n, plural, one {# файл} other {# файлов}}', null, 'ru')).toEqual(['plurals']);
    expect(checks('Hallo.', null)).toEqual([]);
  });
});

describe('plurals in languages with only `other`', () => {
  const en = '{n, plural, one {# file} other {# files}}';
  it('Japanese and Chinese may drop the source plural for the bare count ({n}件): one branch says it all', () => {
    expect(check('{n}件のファイル', en, 'ja')).toEqual([]);
    expect(check('{n} 个文件', en, 'zh')).toEqual([]);
    expect(check('{n}位', '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}', 'ja')).toEqual([]);
  });

  it('a language with more categories is still told it dropped the plural', () => {
    expect(only('plurals', '{n} файлов', en, 'ru').map((w) => w.message)).toEqual(['The source pluralizes {n}, this does not']);
  });
});

describe('unbalanced tags judged against the source', () => {
  it('an angle-bracket key name such as <Enter> that the source has too is no unbalanced tag', () => {
    expect(check('Drücken Sie <Enter>, um fortzufahren', 'Press <Enter> to continue')).toEqual([]);
    expect(check('<Esc> oder <Enter> drücken', 'Press <Enter> or <Esc>')).toEqual([]);
  });

  it('an imbalance the source does not have is still reported', () => {
    expect(only('html_tags', 'Drücken Sie <Enter></b>', 'Press <Enter> to continue')).toHaveLength(1);
    expect(only('html_tags', '<b>Drücken Sie <Enter>', 'Press <Enter> to continue')).toHaveLength(1);
    expect(only('html_tags', 'Drücken Sie <Enter>', null)).toHaveLength(1);
    expect(only('html_tags', '<b>Fett', '<b>Bold</b>')).toHaveLength(1);
  });
});

describe('length from and to CJK text', () => {
  it('a German translation of a Chinese sentence is not flagged: a CJK character counts as 2', () => {
    expect(check('Sind Sie sicher, dass Sie diese Datei löschen möchten?', '确定要删除此文件吗？', 'de', 'zh')).toEqual([]);
    expect(check('Möchten Sie die Änderungen wirklich verwerfen?', '変更を破棄しますか？', 'de', 'ja')).toEqual([]);
  });

  it('a translation far longer than even the weighted source is still flagged, saying how it counted', () => {
    expect(only('length', 'Speichern und schließen und dann noch sehr viel mehr Text dazu', '保存').map((w) => w.message)).toEqual([
      "62 characters, more than 3 times the source's 4 (a CJK character counts as 2)",
    ]);
    // Text without CJK measures and reads as before.
    expect(only('length', 'Speichern und schließen und dann noch sehr viel mehr Text dazu', 'Save').map((w) => w.message)).toEqual([
      "62 characters, more than 3 times the source's 4",
    ]);
  });
});

describe('visibleLength', () => {
  it('counts what Intl.Segmenter counts, through the fast path and without it', async () => {
    const { visibleLength } = await import('../../core/quality/text-edges.ts');
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const graphemes = (s: string) => [...segmenter.segment(s)].length;
    const samples = [
      'Save changes', 'Привет, мир', '保存しました。', '설정을 저장했습니다', 'Ελληνικά', 'שלום עולם', 'مرحبا بالعالم',
      // Texts that join units into one grapheme: the slow path must still be right.
      'é (e + combining acute)', 'ไม่มีข้อมูล', 'नमस्ते दुनिया', 'Family: 👨‍👩‍👧', 'Flag 🇩🇪', 'Thumbs 👍🏽', 'Keycap 1️⃣',
      'line\r\nbreak', 'ﾊﾟﾝ (halfwidth with voiced mark)', '각 (jamo)', 'ำ Thai sara am', '\u0600123 Arabic number sign',
    ];
    for (const s of samples) expect(visibleLength(s), s).toBe(graphemes(s));
  });
});

describe('regular expressions over values (security review 2026-11-27)', () => {
  it('a printf-like run of zeros is checked in linear time (the flags and width no longer overlap)', async () => {
    const { protect } = await import('../../core/translate/protect.ts');
    // 10,000 characters, the value limit: before the fix each took about 85 ms here (quadratic), so
    // the 2,000 values one "has problems" page scans, or an import's values, held the event loop for minutes.
    const hostile = `%${'0'.repeat(9_998)}!`;
    // A complexity guard, not a speed target: 100 rounds took about 17 s before the fix and take a few
    // milliseconds now, so the bound holds on any machine and still fails on the quadratic pattern.
    const started = performance.now();
    for (let i = 0; i < 100; i++) {
      check(hostile, hostile);
      protect(hostile);
    }
    expect(performance.now() - started).toBeLessThan(3_000);
    // Zero-padded widths are still one placeholder, as before.
    expect(check('%05d und %-08.2f', '%05d and %-08.2f')).toEqual([]);
    expect(only('placeholders', '%05d', '%s')).toHaveLength(2);
  });
});
