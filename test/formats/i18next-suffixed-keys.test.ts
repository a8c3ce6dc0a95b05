// Stored keys named like i18next plural forms. A set such as `items_one`, `items_other` with no key
// `items` (made through the API, the portal or a flat `json` file) reads back from an i18next file
// as one plural key `items`: the export wrote them as they are, so importing it into the same
// project created `items`, and `tms pull` then `tms push --remove-unused` deleted `items_one` and
// `items_other`. Export refuses exactly such sets, naming every key (docs/formats.md, "What each
// format cannot carry"); suffixed keys that read back as they are are still written.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FORMATS, FormatError } from '../../core/formats/index.ts';
import type { Entry } from '../../core/formats/types.ts';
import { byKey } from './support/arbitraries.ts';

const codec = FORMATS.i18next;
const write = (entries: Entry[], language = 'de') => codec.serialize(entries, { language });
const read = (body: Uint8Array, language = 'de') => codec.parse(body, { language });

function refusal(entries: Entry[], language = 'de'): FormatError {
  try {
    write(entries, language);
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw error;
  }
  throw new Error('expected a FormatError');
}

describe('i18next export of keys named like plural forms', () => {
  it('refuses items_one and items_other without a key items, naming both', () => {
    const entries = [
      { key: 'items_one', value: 'ein Ding' },
      { key: 'items_other', value: 'Dinge' },
      { key: 'home.title', value: 'Start' },
    ];
    const error = refusal(entries);
    expect(error.all.map((e) => e.loc)).toEqual([
      ['body', 'items_one'],
      ['body', 'items_other'],
    ]);
    expect(error.msg).toBe(
      "i18next reads the keys items_one, items_other as the forms of one plural key 'items', so 'items_one' cannot be written as a key of its own: rename it, or store the forms as one plural value at 'items'",
    );
  });

  it('refuses nested and ordinal sets too, and every set in one refusal', () => {
    const error = refusal([
      { key: 'home.notes_other', value: 'Notizen' },
      { key: 'place_ordinal_one', value: '#.' },
      { key: 'place_ordinal_other', value: '#.' },
      { key: 'plain', value: 'x' },
    ]);
    expect(error.all.map((e) => e.loc[1])).toEqual(['home.notes_other', 'place_ordinal_one', 'place_ordinal_other']);
  });

  it('writes suffixed keys that read back as they are: no _other among them, or beside a key of the base name', () => {
    const entries = [
      { key: 'a_one', value: 'eins' },
      { key: 'a_few', value: 'einige' },
      { key: 'b', value: 'B' },
      { key: 'b_one', value: 'ein B' },
      { key: 'b_other', value: 'Bs' },
      { key: 'c_other', value: 'plural c' },
      { key: 'c', value: '{count, plural, one {# C} other {# Cs}}' },
    ];
    const parsed = read(write(entries));
    expect(byKey(parsed.entries)).toEqual(byKey(entries));
    expect(parsed.warnings).toEqual([
      'a_*: no _other form, so the keys were imported one by one, not as a plural',
      'b_*: the key b also exists, so the suffixed keys were imported one by one, not as a plural',
      'c_*: the key c also exists, so the suffixed keys were imported one by one, not as a plural',
    ]);
  });

  it('an ordinal set beside a cardinal plural of the same base is written (it reads back one by one)', () => {
    const entries = [
      { key: 'x', value: '{count, plural, one {# Mal} other {# Male}}' },
      { key: 'x_ordinal_one', value: 'erstes' },
      { key: 'x_ordinal_other', value: 'n-tes' },
    ];
    expect(byKey(read(write(entries)).entries)).toEqual(byKey(entries));
  });

  it('a stored plural is still written as its forms, and read back as the same plural', () => {
    const entries = [{ key: 'items', value: '{count, plural, one {# Ding} other {# Dinge}}' }];
    expect(JSON.parse(new TextDecoder().decode(write(entries)))).toEqual({ items_one: '{{count}} Ding', items_other: '{{count}} Dinge' });
    expect(read(write(entries)).entries).toEqual(entries);
  });

  it('property: export either reads back to the same entries, or refuses only stored suffixed keys that would not', () => {
    // Few bases and suffixes, so that sets, bases and plurals meet often.
    const keyArb = fc
      .tuple(fc.constantFrom('a', 'b', 'a.b', 'a_one'), fc.constantFrom('', '_one', '_other', '_few', '_zero', '_ordinal_one', '_ordinal_other', '_ordinal'))
      .map(([base, suffix]) => base + suffix);
    // Plurals with every German category (one lacking one comes back with it: docs/formats.md).
    const valueArb = fc.constantFrom('text', '', '{count, plural, one {# Ding} other {# Dinge}}', '{count, selectordinal, other {#.}}');
    const entriesArb = fc.uniqueArray(fc.record({ key: keyArb, value: valueArb }), { maxLength: 10, selector: (e) => e.key });
    const suffixed = /_(ordinal_)?(zero|one|two|few|many|other)$/;
    fc.assert(
      fc.property(entriesArb, (entries) => {
        const language = 'de';
        // Refused keys taken out, one refusal after another (an ordinal set beside a refused
        // cardinal one of the same base reads back as it is until that one is gone).
        let rest = entries;
        for (;;) {
          let body: Uint8Array;
          try {
            body = write(rest, language);
          } catch (error) {
            if (!(error instanceof FormatError)) throw error;
            const named = error.all.map((e) => String(e.loc[1]));
            expect(named.length).toBeGreaterThan(0);
            for (const key of named) {
              expect(rest.some((e) => e.key === key)).toBe(true);
              expect(key).toMatch(suffixed);
            }
            // Each named set, written as it is, would read back as one plural key: refused for that.
            const verbatim = new TextEncoder().encode(JSON.stringify(Object.fromEntries(rest.filter((e) => named.includes(e.key)).map((e) => [e.key, 'v']))));
            expect(read(verbatim, language).entries.some((e) => named.includes(e.key))).toBe(false);
            rest = rest.filter((e) => !named.includes(e.key));
            continue;
          }
          expect(byKey(read(body, language).entries)).toEqual(byKey(rest));
          return;
        }
      }),
      { numRuns: 300 },
    );
  });
});
