// Whatever bytes arrive, a codec either reads them or throws a FormatError that says where: never
// another exception (which the import endpoint would answer as a 500). Random bytes, and valid
// files cut short or with a byte changed, for every format.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FORMATS, FormatError } from '../../core/formats/index.ts';
import type { FormatId } from '../../core/formats/types.ts';
import { entriesFor } from './support/arbitraries.ts';

const RUNS = Number(process.env.FORMAT_RUNS ?? 60);

function readsOrSaysWhere(format: FormatId, body: Uint8Array): void {
  try {
    FORMATS[format].parse(body, { language: 'de' });
  } catch (error) {
    if (!(error instanceof FormatError)) throw new Error(`${format} threw ${String(error)} instead of a FormatError`, { cause: error });
    expect(error.loc[0]).toBe('body');
    expect(error.msg.length).toBeGreaterThan(0);
  }
}

describe.each(Object.keys(FORMATS) as FormatId[])('%s', (format) => {
  it('random bytes: read, or a FormatError with a location', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => readsOrSaysWhere(format, bytes)), { numRuns: RUNS });
  });

  it('a valid file cut short or with one byte changed: read, or a FormatError with a location', () => {
    const damaged = entriesFor(format, 'de', 6).chain((entries) => {
      const source = { language: 'en', values: new Map(entries.map((e) => [e.key, e.value])) };
      const file = FORMATS[format].serialize(entries, { language: 'de', source });
      return fc.tuple(fc.constant(file), fc.nat({ max: Math.max(0, file.length - 1) }), fc.integer({ min: 0, max: 255 }), fc.boolean());
    });
    fc.assert(
      fc.property(damaged, ([file, at, byte, cut]) => {
        const body = cut ? file.slice(0, at) : Uint8Array.from(file, (b, i) => (i === at ? byte : b));
        readsOrSaysWhere(format, body);
      }),
      { numRuns: RUNS },
    );
  });
});
