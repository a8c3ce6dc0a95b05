// A stored ICU plural exports to .stringsdict as a NSStringPluralRuleType variable whatever its
// spelling. Flutter ARB values (`one{# file}`, no space before the brace, as gen-l10n's docs and
// templates write them) and values typed with `{count}` instead of `#` are plurals that android,
// i18next, po and yaml all export as native plurals; .stringsdict compared spellings exactly and
// wrote them as a plain NSStringLocalizedFormatKey holding the ICU source, which iOS shows to users
// verbatim. They come back in the canonical spelling, which says the same.
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/formats/index.ts';
import type { Entry } from '../../core/formats/types.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const write = (entries: Entry[], language = 'en') => dec(FORMATS['ios-stringsdict'].serialize(entries, { language }));

describe('ios-stringsdict export of plurals in any ICU spelling', () => {
  it('an ARB plural without spaces before its braces is a plural variable, not the ICU text', () => {
    const arb = JSON.stringify({ '@@locale': 'en', nFiles: '{count, plural, one{# file} other{# files}}' });
    const entries = FORMATS.arb.parse(enc(arb), { language: 'en' }).entries;
    // The same value is a native plural in Android (and i18next, po, yaml):
    expect(dec(FORMATS.android.serialize(entries, { language: 'en' }))).toContain('<plurals name="nFiles">');
    const out = write(entries);
    expect(out).not.toContain('{count, plural');
    expect(out).toContain('<string>%#@count@</string>');
    expect(out).toContain('<string>%lld files</string>');
  });

  it('a plural that names its argument ({count}) instead of # is a plural variable', () => {
    const out = write([{ key: 'files', value: '{count, plural, one {{count} file} other {{count} files}}' }]);
    expect(out).not.toContain('{count, plural');
    expect(out).toContain('<string>%lld file</string>');
  });

  it('text around an ARB-spelled plural becomes the format string with a variable', () => {
    const out = write([{ key: 'inbox', value: 'You have {count, plural, one{# message} other{# messages}}' }]);
    expect(out).toContain('<string>You have %#@count@</string>');
    const back = FORMATS['ios-stringsdict'].parse(enc(out), { language: 'en' }).entries;
    expect(back).toEqual([{ key: 'inbox', value: 'You have {count, plural, one {# message} other {# messages}}' }]);
  });

  it("text beside a plural in another ICU spelling (It''s, a bare }) is written unquoted and read back saying the same", () => {
    const out = write([{ key: 'k', value: "It''s } {n, plural, one{# file} other{# files}}" }]);
    expect(out).toContain("<string>It's } %#@n@</string>");
    const back = FORMATS['ios-stringsdict'].parse(enc(out), { language: 'en' }).entries;
    expect(back).toEqual([{ key: 'k', value: "It's '}' {n, plural, one {# file} other {# files}}" }]);
  });

  it('a plural the variables cannot say the same as (a nested select) stays a plain format string', () => {
    const value = 'x {n, plural, one {{g, select, f {a} other {b}}} other {c}}';
    expect(write([{ key: 'k', value }])).toContain(`<string>${value}</string>`);
  });
});
