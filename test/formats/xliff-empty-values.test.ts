// An empty value (a suffix that is empty in German) is a deliberate translation. XLIFF exports
// wrote it as an empty <target>, which import skips as untranslated (what CAT tools write for a unit
// not yet translated), so the value was lost in an export/import round trip. Export now marks it:
// XLIFF 1.2 `<target state="translated"></target>`, XLIFF 2.0 `<segment state="translated">` with an
// empty <target>; an empty target so marked reads as '', an unmarked one is still untranslated.
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/formats/index.ts';
import type { Entry, SerializeContext } from '../../core/formats/types.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const ctx = (values: Record<string, string>): SerializeContext => ({ language: 'de', source: { language: 'en', values: new Map(Object.entries(values)) } });

describe.each(['xliff', 'xliff2'] as const)('%s: an empty value', (format) => {
  const codec = FORMATS[format];
  const entries: Entry[] = [
    { key: 'home.suffix', value: '' },
    { key: 'home.title', value: 'Start' },
  ];
  const source = ctx({ 'home.suffix': ' (copy)', 'home.title': 'Home', 'home.new': 'New' });

  it('is written marked translated, and reads back as the empty value, with no warning', () => {
    const file = dec(codec.serialize(entries, source));
    if (format === 'xliff') expect(file).toContain('<source> (copy)</source>\n        <target state="translated"></target>');
    else expect(file).toContain('<segment state="translated">\n        <source> (copy)</source>\n        <target></target>');
    // Only the empty value is marked; a key without a value in this language still has no <target>.
    expect(file.match(/state=/g)).toHaveLength(1);
    const parsed = codec.parse(enc(file), { language: 'de' });
    expect(parsed.entries).toEqual(entries);
    expect(parsed.warnings).toEqual(['1 unit has no <target> and was skipped']);
    expect(dec(codec.serialize(parsed.entries, source))).toBe(file);
  });

  it('an empty source and an empty value round-trip too', () => {
    const one: Entry[] = [{ key: 'blank', value: '' }];
    const file = codec.serialize(one, ctx({ blank: '' }));
    expect(codec.parse(file, { language: 'de' })).toEqual({ entries: one, warnings: [] });
  });
});

describe('empty targets from other tools', () => {
  const xliff12 = (target: string) => `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" target-language="de" datatype="plaintext" original="messages">
    <body>
      <trans-unit id="k"><source>Text</source>${target}</trans-unit>
    </body>
  </file>
</xliff>`;
  const xliff20 = (state: string) => `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="de">
  <file id="f">
    <unit id="k"><segment${state}><source>Text</source><target/></segment></unit>
  </file>
</xliff>`;
  const skipped = { entries: [], warnings: ['1 untranslated unit was skipped (empty <target>)'] };
  const empty = { entries: [{ key: 'k', value: '' }], warnings: [] };

  it.each([
    ['<target/>', skipped],
    ['<target></target>', skipped],
    ['<target state="new"/>', skipped],
    ['<target state="needs-translation"/>', skipped],
    ['<target state="needs-review-translation"/>', skipped],
    ['<target state="translated"/>', empty],
    ['<target state="final"></target>', empty],
    ['<target state="signed-off"/>', empty],
  ])('XLIFF 1.2 %s', (target, expected) => {
    expect(FORMATS.xliff.parse(enc(xliff12(target)), { language: 'de' })).toEqual(expected);
  });

  it.each([
    ['', skipped],
    [' state="initial"', skipped],
    [' state="translated"', empty],
    [' state="reviewed"', empty],
    [' state="final"', empty],
  ])('XLIFF 2.0 <segment%s> with <target/>', (state, expected) => {
    expect(FORMATS.xliff2.parse(enc(xliff20(state)), { language: 'de' })).toEqual(expected);
  });
});
