import { describe, expect, it } from 'vitest';
import { parse } from '@formatjs/icu-messageformat-parser';
import { protect } from '../../core/translate/protect.ts';
import { checkTranslation } from '../../core/quality/check-translation.ts';
import { fakeTranslate } from '../support/mt-emulators.ts';

const machine = (value: string, to: string) => {
  const p = protect(value);
  return p.restore(p.segments.map((s) => fakeTranslate(s, to)), to);
};

describe('protecting placeholders and ICU structure for machine translation', () => {
  it('every placeholder family goes out as a tag and comes back as it was', () => {
    const value = 'Hello {name}, %1$s and %d, {{count}} <b>files</b><br/> {price, number, ::currency/EUR} 100%%';
    const p = protect(value);
    expect(p.segments).toHaveLength(1);
    expect(p.segments[0]).not.toMatch(/\{|%1\$s|%d|<b>/);
    expect(p.segments[0]).toContain('100%%');
    expect(machine(value, 'de')).toBe('Hallo {name}, %1$s AND %d, {{count}} <b>Dateien</b><br/> {price, number, ::currency/EUR} 100%%');
  });

  it('a plural is translated branch by branch and rebuilt with the target language categories', () => {
    const value = '{n, plural, =0 {No files} one {# file} other {# files}}';
    expect(protect(value).segments).toEqual(['No files', '<x id="0"/> file', '<x id="0"/> files']);
    const ru = machine(value, 'ru')!;
    expect(ru).toBe('{n, plural, =0 {NO FILES} one {# FILE} few {# FILES} many {# FILES} other {# FILES}}');
    expect(() => parse(ru)).not.toThrow();
    expect(checkTranslation({ text: ru, language: 'ru', source: value, sourceLanguage: 'en' }).filter((w) => w.check === 'plurals' || w.check === 'placeholders' || w.check === 'icu_syntax')).toEqual([]);
    // Japanese needs only `other`.
    expect(machine(value, 'ja')).toBe('{n, plural, =0 {NO FILES} other {# FILES}}');
  });

  it('selects, ordinals, offsets and text around them', () => {
    const value = 'Hello {g, select, male {he} other {they}} has {n, selectordinal, one {#st} other {#th}} {c, plural, offset:1 one {file} other {files}}';
    const out = machine(value, 'de')!;
    expect(out).toBe('Hallo {g, select, male {HE} other {THEY}} HAS {n, selectordinal, other {#TH}} {c, plural, offset:1 one {Datei} other {Dateien}}');
    expect(() => parse(out)).not.toThrow();
  });

  it('texts without words are not sent, and come back unchanged', () => {
    const p = protect('{count}');
    expect(p.segments).toEqual([]);
    expect(p.restore([], 'de')).toBe('{count}');
    expect(protect('{n, plural, one {#} other {#}}').segments).toEqual([]);
  });

  it('a translation that loses, repeats or invents a placeholder is refused (null), never written', () => {
    const p = protect('Hello {name}');
    expect(p.restore(['Hallo'], 'de')).toBeNull();
    expect(p.restore(['<x id="0"/> <x id="0"/>'], 'de')).toBeNull();
    expect(p.restore(['Hallo <x id="0"/> <x id="7"/>'], 'de')).toBeNull();
    expect(p.restore([], 'de')).toBeNull();
    // Spacing and quoting variants providers produce are still the same tag.
    expect(p.restore(["Hallo <x id='0'/>"], 'de')).toBe('Hallo {name}');
    expect(p.restore(['Hallo <x id="0"></x>'], 'de')).toBe('Hallo {name}');
  });

  it("i18next's double braces are not taken for ICU", () => {
    expect(machine('Hello {{name}}, {{count}} files', 'de')).toBe('Hallo {{name}}, {{count}} Dateien');
  });
});
