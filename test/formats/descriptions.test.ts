// Which comment becomes an entry's description in the formats that carry them as comments
// (.strings, Android, .stringsdict): the comment directly above the entry. Not one separated by a
// blank line, and not one trailing the previous entry on its line (`"a" = "b"; // old`), which a
// person added about that entry, not the next.
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/formats/index.ts';
import type { FormatId } from '../../core/formats/types.ts';

const read = (format: FormatId, text: string) =>
  Object.fromEntries(FORMATS[format].parse(new TextEncoder().encode(text), { language: 'de' }).entries.map((e) => [e.key, e.description ?? null]));

describe('ios-strings', () => {
  it('takes the comment directly above, joined // lines, and neither a trailing nor a detached one', () => {
    const text = [
      '/* Above a */',
      '"a" = "A"; // trails a',
      '"b" = "B";',
      '// first line',
      '// second line',
      '"c" = "C"; /* trails c */ "d" = "D";',
      '/* detached */',
      '',
      '"e" = "E";',
    ].join('\n');
    expect(read('ios-strings', text)).toEqual({ a: 'Above a', b: null, c: 'first line\nsecond line', d: null, e: null });
  });
});

describe('android', () => {
  it('takes the comment directly above, and neither a trailing nor a detached one', () => {
    const text = [
      '<resources>',
      '    <!-- Above a -->',
      '    <string name="a">A</string> <!-- trails a -->',
      '    <string name="b">B</string>',
      '    <!-- detached -->',
      '',
      '    <string name="c">C</string>',
      '    <string-array name="days">',
      '        <!-- Above the first item -->',
      '        <item>Mo</item> <!-- trails the first item -->',
      '        <item>Di</item>',
      '    </string-array>',
      '</resources>',
    ].join('\n');
    expect(read('android', text)).toEqual({ a: 'Above a', b: null, c: null, 'days[0]': 'Above the first item', 'days[1]': null });
  });
});

describe('ios-stringsdict', () => {
  it('takes the comment directly above a top-level <key>, not one trailing the previous value', () => {
    const text = [
      '<plist version="1.0">',
      '<dict>',
      '\t<!-- Above a -->',
      '\t<key>a</key>',
      '\t<string>A</string> <!-- trails a -->',
      '\t<key>b</key>',
      '\t<string>B</string>',
      '</dict>',
      '</plist>',
    ].join('\n');
    expect(read('ios-stringsdict', text)).toEqual({ a: 'Above a', b: null });
  });
});
