// Import takes files up to 10 MiB, so every reader must stay linear in the file's size. A reader
// that compares each key with every other (the yaml library's own duplicate-key check did: 12 s for
// one mapping of 32,000 keys, minutes for 100,000) fails this. One flat mapping is the worst case for
// per-mapping checks. `npm run bench -- --only files` measures the 10 MiB import end to end.
//
// Linear is judged by how the time grows, not by a wall-clock bound: the same input eight times as
// large must take less than twenty times as long (a quadratic reader takes sixty-four; the slack
// covers fixed costs, and the garbage collector that large inputs wake). An absolute bound failed on
// a slow hour of CI (xlsx, 30,000 keys: 4.4 s against 4 s) on a reader that is linear.
// Each size's figure is its fastest of a few runs, so that a pause of the machine does not count,
// and a growth over the bound is measured again, up to three times: a quadratic reader is over it
// every time, a linear one only when the machine paused through every run of one size. In the full
// suite on two cores, measured once, linear readers grew 22-31x (2026-12-05): other files' processes
// took the core, and this file shared a worker whose heap held every earlier file's modules, so a
// major collection landing in a large run cost more than the run. The file now runs in a worker of
// its own (vitest.config.ts, ISOLATED). Not CPU time, tried: it counts the garbage collector's
// helper threads, whose work for a large run's heap lands in its figure, and linear readers grew
// 21-37x by it when run alone.
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/formats/index.ts';
import type { FormatId } from '../../core/formats/types.ts';

const KEYS = 30_000;
const GROWTH = 8;
/** Linear growth is 8, quadratic 64. */
const MAX_RATIO = 20;
const ATTEMPTS = 3;

function fastest(runs: number, run: () => void): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/**
 * How much longer `run(n)` takes than `run(n / GROWTH)`, each the fastest of its runs (after a
 * warm-up); measured again while over the bound, up to ATTEMPTS times, and the least kept.
 */
function growth(n: number, run: (size: number) => void): number {
  run(n / GROWTH);
  let least = Infinity;
  for (let attempt = 0; attempt < ATTEMPTS && least >= MAX_RATIO; attempt++) {
    const small = fastest(3, () => run(n / GROWTH));
    const large = fastest(3, () => run(n));
    least = Math.min(least, large / small);
  }
  return least;
}

describe('the linearity check itself', () => {
  it('tells a quadratic reader from a linear one', () => {
    const linear = (n: number) => {
      const seen = new Set<string>();
      for (let i = 0; i < n * 40; i++) seen.add(`key_${i % n}`);
    };
    const quadratic = (n: number) => {
      const seen: string[] = [];
      for (let i = 0; i < n; i++) if (!seen.includes(`key_${i}`)) seen.push(`key_${i}`);
    };
    expect(growth(16_000, linear)).toBeLessThan(MAX_RATIO);
    expect(growth(16_000, quadratic)).toBeGreaterThan(MAX_RATIO);
  }, 60_000);
});

const bodies = new Map<string, Uint8Array>();
function fileOf(format: FormatId, keys: number): Uint8Array {
  const id = `${format} ${keys}`;
  let body = bodies.get(id);
  if (!body) {
    const entries = Array.from({ length: keys }, (_, i) => ({ key: `key_${i}`, value: `Wert ${i} mit etwas Text, damit die Datei groß wird` }));
    const source = { language: 'en', values: new Map(entries.map((e) => [e.key, e.value])) };
    bodies.set(id, (body = FORMATS[format].serialize(entries, { language: 'de', source }) as Uint8Array));
  }
  return body;
}

it.each(Object.keys(FORMATS) as FormatId[])('%s reads 30,000 keys in one flat mapping in linear time', (format) => {
  const read = (keys: number) => expect(FORMATS[format].parse(fileOf(format, keys), { language: 'de' }).entries).toHaveLength(keys);
  expect(growth(KEYS, read)).toBeLessThan(MAX_RATIO);
  bodies.clear();
}, 120_000);

// A .properties value may continue over any number of lines (a trailing backslash): reading it
// piece by piece onto one string, cut at each backslash, took 18 s for 300,000 lines (found by review).
it('properties: one value continued over 300,000 lines, on the server and in the CLI, in linear time', async () => {
  const { propertiesKeys } = await import('../../cli/src/file-keys/properties.ts');
  const body = (lines: number) => new TextEncoder().encode(`a=${'x\\\n'.repeat(lines)}end\n`);
  const read = (lines: number) => {
    const file = body(lines);
    expect(FORMATS.properties.parse(file, { language: 'de' }).entries).toEqual([{ key: 'a', value: `${'x'.repeat(lines)}end` }]);
    expect(propertiesKeys(file)).toEqual(['a']);
  };
  expect(growth(300_000, read)).toBeLessThan(MAX_RATIO);
}, 120_000);
