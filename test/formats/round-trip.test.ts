// The contract of every codec, as properties over hostile entries (test/formats/support): what a
// codec writes it reads back unchanged (the fields the format carries), and writing what it read
// gives the same bytes. The limits of each format are in FORMAT_LIMITS and docs/formats.md.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FORMATS } from '../../core/formats/index.ts';
import type { Entry, FormatId, SerializeContext } from '../../core/formats/types.ts';
import { byKey, entriesFor } from './support/arbitraries.ts';

const LANGUAGES = ['en', 'de', 'ru', 'ar', 'ja', 'fr', 'cy'];
const RUNS = Number(process.env.FORMAT_RUNS ?? 60);

function context(language: string, entries: readonly Entry[]): SerializeContext {
  // Source values for the XLIFF formats, plus one key only the source language has.
  const values = new Map(entries.map((e) => [e.key, `src ${e.value}`]));
  values.set('only.in.source', 'Source only');
  return { language, source: { language: 'en', values } };
}

const withLanguage = (format: FormatId) =>
  fc.constantFrom(...LANGUAGES).chain((language) => entriesFor(format, language).map((entries) => ({ language, entries })));

describe.each(Object.keys(FORMATS) as FormatId[])('%s round trip', (format) => {
  const codec = FORMATS[format];

  it('parse(serialize(entries)) gives back the entries', () => {
    fc.assert(
      fc.property(withLanguage(format), ({ language, entries }) => {
        const body = codec.serialize(entries, context(language, entries));
        const parsed = codec.parse(body, { language });
        const expected = entries.filter((e) => !(format.startsWith('xliff') && e.key === 'only.in.source'));
        expect(byKey(parsed.entries)).toEqual(byKey(expected));
      }),
      { numRuns: RUNS },
    );
  });

  it('serialize(parse(file)) writes the same bytes, and twice the same', () => {
    fc.assert(
      fc.property(withLanguage(format), ({ language, entries }) => {
        const ctx = context(language, entries);
        const body = codec.serialize(entries, ctx);
        expect(codec.serialize([...entries].reverse(), ctx)).toEqual(body);
        const again = codec.serialize(codec.parse(body, { language }).entries, ctx);
        expect(new TextDecoder().decode(again)).toBe(new TextDecoder().decode(body));
      }),
      { numRuns: RUNS },
    );
  });

  it('writes UTF-8 ending in a newline', () => {
    const body = codec.serialize([{ key: 'greeting', value: 'Grüße 👋' }], context('de', []));
    expect(new TextDecoder('utf-8', { fatal: true }).decode(body).endsWith('\n')).toBe(true);
    expect(codec.serialize([], context('de', [])).at(-1)).toBe(0x0a);
  });
});
