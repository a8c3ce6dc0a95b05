// The contract of every codec, as properties over hostile entries (test/formats/support): what a
// codec writes it reads back unchanged (the fields the format carries), and writing what it read
// gives the same bytes. The limits of each format are in FORMAT_LIMITS and docs/formats.md.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FORMATS } from '../../core/formats/index.ts';
import type { Entry, FormatId, SerializeContext } from '../../core/formats/types.ts';
import { byKey, DEEPEST_KEYS, entriesFor, FORMAT_LIMITS } from './support/arbitraries.ts';
import { wholeNumberFromEnv } from '../support/whole-number-from-env.ts';

const LANGUAGES = ['en', 'de', 'ru', 'ar', 'ja', 'fr', 'cy'];
/** FORMAT_RUNS=1000 for a deeper search; the time allowed grows with it. */
const RUNS = wholeNumberFromEnv('FORMAT_RUNS', 60);
const TIMEOUT = Math.max(30_000, RUNS * 500);

/**
 * Bodies compared as text: as strict as bytes, and a failure shows a readable diff. (toEqual on a
 * Uint8Array compares element by element: 0.6 s for 200 KB.) A binary format's (xlsx: its content
 * type has no charset) as base64.
 */
const text = (format: FormatId, body: Uint8Array) =>
  FORMATS[format].contentType.includes('charset=') ? new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body) : Buffer.from(body).toString('base64');

function context(language: string, entries: readonly Entry[], format?: FormatId): SerializeContext {
  // Source values for the XLIFF formats, plus one key only the source language has. The tables
  // (csv, xlsx) write a source given them in a column of its own (test/files/table-source-*.test.ts):
  // their round trip here is the plain table's.
  if (format !== undefined && !FORMATS[format].needsSource) return { language };
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
        const body = codec.serialize(entries, context(language, entries, format));
        const parsed = codec.parse(body, { language });
        const expected = entries.filter((e) => !(format.startsWith('xliff') && e.key === 'only.in.source'));
        expect(byKey(parsed.entries)).toEqual(byKey(expected));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it('serialize(parse(file)) writes the same bytes, and twice the same', () => {
    fc.assert(
      fc.property(withLanguage(format), ({ language, entries }) => {
        const ctx = context(language, entries, format);
        const body = text(format, codec.serialize(entries, ctx));
        expect(text(format, codec.serialize([...entries].reverse(), ctx))).toBe(body);
        const again = codec.serialize(codec.parse(codec.serialize(entries, ctx), { language }).entries, ctx);
        expect(text(format, again)).toBe(body);
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it('the deepest keys the service accepts (501 levels when nested) come back', () => {
    const entries = DEEPEST_KEYS.filter((k) => FORMAT_LIMITS[format].key?.(k) ?? true).map((k) => ({ key: k, value: 'deep' }));
    const parsed = codec.parse(codec.serialize(entries, context('de', entries, format)), { language: 'de' });
    expect(byKey(parsed.entries.filter((e) => e.key !== 'only.in.source'))).toEqual(byKey(entries));
  });

  // A String Catalog ends at its `}` without a newline, as Xcode writes it (test/formats/xcstrings.test.ts).
  it.runIf(codec.contentType.includes('charset=') && format !== 'xcstrings')('writes UTF-8 ending in a newline', () => {
    const body = codec.serialize([{ key: 'greeting', value: 'Grüße 👋' }], context('de', []));
    expect(new TextDecoder('utf-8', { fatal: true }).decode(body).endsWith('\n')).toBe(true);
    expect(codec.serialize([], context('de', [])).at(-1)).toBe(0x0a);
  });
});
