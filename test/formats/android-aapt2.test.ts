// What aapt2 (the Android build's resource compiler) requires of a strings.xml, beyond XML: a
// <string> with several substitutions, not all positional, needs formatted="false" (tms derives it
// on export from the value, as aapt2's VerifyJavaStringFormat decides); and product variants of a
// resource (product="tablet" beside the default) are one resource, of which tms keeps the default.
import { describe, expect, it } from 'vitest';
import { FORMATS, FormatError } from '../../core/formats/index.ts';
import { needsFormattedFalse } from '../../core/formats/android/java-format.ts';

const android = FORMATS.android;
const utf8 = (text: string) => new TextEncoder().encode(text);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const resources = (...lines: string[]) => `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n${lines.map((l) => `    ${l}`).join('\n')}\n</resources>\n`;

function refusal(xml: string): FormatError {
  try {
    android.parse(utf8(xml), { language: 'de' });
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw error;
  }
  throw new Error('the file was read');
}

describe('formatted="false"', () => {
  it('a string imported with formatted="false" exports with it, and reads back the same', () => {
    const file = resources('<string name="of" formatted="false">%s of %s</string>');
    const { entries } = android.parse(utf8(file), { language: 'de' });
    expect(entries).toEqual([{ key: 'of', value: '%s of %s' }]);
    const written = android.serialize(entries, { language: 'de' });
    expect(text(written)).toBe(file);
    expect(android.parse(written, { language: 'de' }).entries).toEqual(entries);
  });

  it('is written exactly where aapt2 would refuse the string without it', () => {
    const entries = [
      { key: 'both_plain', value: '%s of %s' },
      { key: 'mixed', value: '%1$s of %s' },
      { key: 'positional', value: '%1$s of %2$s' },
      { key: 'one', value: 'Hello, %s!' },
      { key: 'styled', value: '<b>%s</b> of %d' },
      { key: 'percent', value: '100%% of %s' },
      { key: 'times', value: '%02d:%02d' },
      { key: 'count', value: '{count, plural, one {# of %s} other {# of %s}}' },
    ];
    const written = text(android.serialize(entries, { language: 'de' }));
    const unformatted = [...written.matchAll(/<string name="([^"]+)" formatted="false">/g)].map((m) => m[1]);
    // Plural items are not checked by aapt2: only <string>.
    expect(unformatted).toEqual(['both_plain', 'mixed', 'styled', 'times']);
    expect(written).toContain('<item quantity="other">%d of %s</item>');
    expect(android.parse(utf8(written), { language: 'de' }).entries).toEqual(entries.sort((a, b) => (a.key < b.key ? -1 : 1)));
  });

  it.each([
    ['%s of %s', true],
    ['%d%s', true],
    ['%1$s of %s', true],
    ['%<s and %s', true],
    ['%5s %1$s', true],
    ['%1$s of %2$s', false],
    ['%1$s %1$s', false],
    ['%s', false],
    ['%% %% %s', false],
    ['%s%n', false],
    ['50%', false],
    ['%s at %H:%M', false],
    ['', false],
  ])('aapt2\'s rule: %j needs it: %s', (value, expected) => {
    expect(needsFormattedFalse(value)).toBe(expected);
  });
});

describe('product variants', () => {
  it('the default variant (product="default" or none) is the value; the others are skipped with a warning', () => {
    for (const xml of [
      resources('<string name="tip" product="tablet">Tippe auf das Tablet</string>', '<string name="tip" product="default">Tippe</string>', '<string name="ok">OK</string>'),
      resources('<string name="tip">Tippe</string>', '<string name="tip" product="tablet">Tippe auf das Tablet</string>', '<string name="ok">OK</string>'),
    ]) {
      const parsed = android.parse(utf8(xml), { language: 'de' });
      expect(parsed.entries).toEqual([
        { key: 'tip', value: 'Tippe' },
        { key: 'ok', value: 'OK' },
      ]);
      expect(parsed.warnings).toEqual(['product variants other than the default were skipped (tms keeps one value per key): tip (tablet)']);
    }
  });

  it('plurals and arrays have variants too', () => {
    const parsed = android.parse(
      utf8(resources(
        '<plurals name="n" product="tv"><item quantity="other">%d TV</item></plurals>',
        '<plurals name="n"><item quantity="one">%d Notiz</item><item quantity="other">%d Notizen</item></plurals>',
        '<string-array name="days"><item>Mo</item></string-array>',
        '<string-array name="days" product="tablet"><item>Montag</item><item>Dienstag</item></string-array>',
      )),
      { language: 'de' },
    );
    expect(parsed.entries.map((e) => [e.key, e.value])).toEqual([
      ['n', '{count, plural, one {# Notiz} other {# Notizen}}'],
      ['days[0]', 'Mo'],
    ]);
    expect(parsed.warnings).toEqual([expect.stringMatching(/: n \(tv\), days \(tablet\)$/)]);
  });

  it('as aapt2: variants without a default, one product twice, or two defaults are refused, naming the line', () => {
    const none = refusal(resources('<string name="ok">OK</string>', '<string name="tip" product="tablet">T</string>', '<string name="tip" product="tv">TV</string>'));
    expect(none.loc).toEqual(['body', 'line', 4]);
    expect(none.msg).toMatch(/tip has product variants but no default/);
    const twice = refusal(resources('<string name="tip">t</string>', '<string name="tip" product="tablet">T</string>', '<string name="tip" product="tablet">T2</string>'));
    expect(twice.loc).toEqual(['body', 'line', 5]);
    expect(twice.msg).toMatch(/tip appears twice with product="tablet" \(lines 4 and 5\)/);
    const defaults = refusal(resources('<string name="tip">t</string>', '<string name="tip" product="default">d</string>'));
    expect(defaults.loc).toEqual(['body', 'line', 4]);
    expect(defaults.msg).toMatch(/tip appears twice \(lines 3 and 4\)/);
  });
});
