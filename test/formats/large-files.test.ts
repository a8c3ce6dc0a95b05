// Import takes files up to 10 MiB, so every reader must stay linear in the file's size. A reader
// that compares each key with every other (the yaml library's own duplicate-key check did: 12 s for
// one mapping of 32,000 keys, minutes for 100,000) fails this; linear readers take 0.05 to 0.5 s.
// One flat mapping is the worst case for per-mapping checks. `npm run bench -- --only files`
// measures the 10 MiB import end to end.
import { expect, it } from 'vitest';
import { FORMATS } from '../../core/formats/index.ts';
import type { FormatId } from '../../core/formats/types.ts';

const KEYS = 30_000;

it.each(Object.keys(FORMATS) as FormatId[])('%s reads 30,000 keys in one flat mapping in linear time', (format) => {
  const entries = Array.from({ length: KEYS }, (_, i) => ({ key: `key_${i}`, value: `Wert ${i} mit etwas Text, damit die Datei groß wird` }));
  const source = { language: 'en', values: new Map(entries.map((e) => [e.key, e.value])) };
  const body = FORMATS[format].serialize(entries, { language: 'de', source });
  const started = performance.now();
  expect(FORMATS[format].parse(body, { language: 'de' }).entries).toHaveLength(KEYS);
  expect(performance.now() - started).toBeLessThan(4_000);
}, 60_000);

// A .properties value may continue over any number of lines (a trailing backslash): reading it
// piece by piece onto one string, cut at each backslash, took 18 s for 300,000 lines (found by review).
it('properties: one value continued over 300,000 lines, on the server and in the CLI, in linear time', async () => {
  const { propertiesKeys } = await import('../../cli/src/file-keys/properties.ts');
  const lines = 300_000;
  const body = new TextEncoder().encode(`a=${'x\\\n'.repeat(lines)}end\n`);
  const started = performance.now();
  expect(FORMATS.properties.parse(body, { language: 'de' }).entries).toEqual([{ key: 'a', value: `${'x'.repeat(lines)}end` }]);
  expect(propertiesKeys(body)).toEqual(['a']);
  expect(performance.now() - started).toBeLessThan(4_000);
}, 60_000);
