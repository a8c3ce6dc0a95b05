// File imports and exports, timed as a client sees them (POST /v1/import, GET /v1/export, and the
// glossary's), and the service's memory during a 10 MiB import. Fresh projects of the bench account take the imports, so
// the standard project the other scenarios read is never changed.
import { createHttpClient, type HttpClient } from './http.ts';
import { FORMATS } from '../core/formats/index.ts';
import { createBenchProject, keyName, STANDARD_SHAPE, valueFor, type BenchProject } from './seed.ts';
import { readMemory, resetPeakMemory, type ServiceProcess } from './server-process.ts';

export type FileRow = {
  name: string;
  /** What was moved: keys (and values) in the file. */
  entries: number;
  bytes: number;
  runs: number[];
  /** Median of the runs, seconds. */
  seconds: number;
  /** Extra peak RSS of the service during the run over its RSS before it (imports). */
  extraPeakBytes: number | null;
  target: string;
  met: boolean | null;
  failure?: string;
};

export type FilesReport = {
  rows: FileRow[];
  /** Seeding 10,000 keys x 3 languages through three imports, against the single-call seed. */
  seedThroughImport: { seconds: number; singleCallSeconds: number; speedup: number } | null;
};

const EXPORT_FORMATS = ['json', 'json-nested', 'i18next', 'xliff', 'xliff2', 'po', 'android', 'ios-strings', 'ios-stringsdict', 'arb', 'yaml', 'csv', 'properties', 'resx', 'xlsx', 'xcstrings'];
const IMPORT_RUNS = 3;
const EXPORT_RUNS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** A flat JSON file of the standard shape's keys in one language (about 700 KB for 10,000 keys). */
function flatFile(language: string, languageIndex: number, valueOf = (i: number) => valueFor(i, languageIndex, language)): Buffer {
  const values: Record<string, string> = {};
  for (let i = 0; i < STANDARD_SHAPE.keys; i++) values[keyName(STANDARD_SHAPE, i)] = valueOf(i);
  return Buffer.from(JSON.stringify(values));
}

async function freshProject(http: HttpClient, adminToken: string, accountId: string, languages: string[]): Promise<string> {
  const project = await createBenchProject(http, adminToken, `bench import ${Math.random().toString(36).slice(2, 8)}`, accountId);
  for (const code of languages) await http.json('POST', '/v1/languages', 201, { headers: { 'X-API-Key': project.apiKey }, json: { code } });
  return project.apiKey;
}

async function timedImport(http: HttpClient, apiKey: string, language: string, file: Buffer, format = 'json'): Promise<number> {
  const started = performance.now();
  await http.json('POST', `/v1/import/${language}?format=${format}&status=approved`, 200, { headers: { 'X-API-Key': apiKey }, raw: file });
  return (performance.now() - started) / 1000;
}

const GLOSSARY_TERMS = 10_000;

/** A glossary CSV of 10,000 terms, each with a description and its German and French. */
function glossaryFile(): Buffer {
  const lines = ['term,description,translatable,case_sensitive,de,fr'];
  for (let i = 0; i < GLOSSARY_TERMS; i++) lines.push(`Term ${i} word,"What term ${i} means, in a sentence",true,false,Begriff ${i},Terme ${i}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

const FORBIDDEN_TERMS = 1_000;

/**
 * A glossary CSV of 1,000 forbidden terms; three of them are seed words. The project's first
 * language is its source language (German here, as in the row it is compared with), so the terms'
 * own spellings are the words judged.
 */
function forbiddenGlossaryFile(): Buffer {
  const lines = ['term,forbidden'];
  const seeded = ['payment', 'shipping', 'invite'];
  for (let i = 0; i < FORBIDDEN_TERMS; i++) lines.push(`${seeded[i] ?? `Banned ${i}`},yes`);
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

async function timedGlossaryImport(http: HttpClient, apiKey: string, file: Buffer, created: number): Promise<number> {
  const started = performance.now();
  const answer = await http.json<{ terms_created: number }>('POST', '/v1/glossary/import?format=csv', 200, { headers: { 'X-API-Key': apiKey }, raw: file });
  const seconds = (performance.now() - started) / 1000;
  if (answer.terms_created !== created) throw new Error(`the glossary import created ${answer.terms_created} terms, not ${created}`);
  return seconds;
}

async function row(name: string, entries: number, bytes: number, target: string, work: () => Promise<Partial<FileRow> & { runs: number[] }>, check: (r: FileRow) => boolean | null): Promise<FileRow> {
  const base: FileRow = { name, entries, bytes, runs: [], seconds: NaN, extraPeakBytes: null, target, met: null };
  try {
    const measured = { ...base, ...(await work()) };
    measured.seconds = round3(median(measured.runs));
    measured.met = check(measured);
    return measured;
  } catch (error) {
    return { ...base, failure: error instanceof Error ? error.message : String(error) };
  }
}

export async function measureFiles(
  mode: 'embedded' | 'postgres',
  service: ServiceProcess,
  adminToken: string,
  standard: BenchProject,
  singleCallSeedSeconds: number,
  say: (line: string) => void,
): Promise<FilesReport> {
  const http = createHttpClient(service.url, 4);
  const rows: FileRow[] = [];
  try {
    // Imports: 10,000 new keys with their values in one flat JSON file, each run into a fresh project.
    const de = flatFile('de', 1);
    rows.push(
      await row('import-10k-new-json', STANDARD_SHAPE.keys, de.length, '<1.5s (postgres), <3s (embedded)', async () => {
        const runs: number[] = [];
        for (let i = 0; i < IMPORT_RUNS; i++) {
          const apiKey = await freshProject(http, adminToken, standard.accountId, ['de']);
          runs.push(round3(await timedImport(http, apiKey, 'de', de)));
        }
        return { runs };
      }, (r) => r.seconds < (mode === 'postgres' ? 1.5 : 3)),
    );
    say(`import of ${STANDARD_SHAPE.keys} new keys (${Math.round(de.length / 1024)} KB): ${rows.at(-1)!.seconds} s`);

    // The same 10,000 keys as an Excel workbook (the archive unpacked, the sheet read in batches):
    // what a spreadsheet costs beside the JSON row above.
    const entries = Object.entries(JSON.parse(de.toString('utf8')) as Record<string, string>).map(([key, value]) => ({ key, value }));
    const sheet = Buffer.from(FORMATS.xlsx.serialize(entries, { language: 'de' }));
    rows.push(
      await row('import-10k-new-xlsx', STANDARD_SHAPE.keys, sheet.length, '<3s (postgres), <6s (embedded)', async () => {
        const runs: number[] = [];
        for (let i = 0; i < IMPORT_RUNS; i++) {
          const apiKey = await freshProject(http, adminToken, standard.accountId, ['de']);
          runs.push(round3(await timedImport(http, apiKey, 'de', sheet, 'xlsx')));
        }
        return { runs };
      }, (r) => r.seconds < (mode === 'postgres' ? 3 : 6)),
    );

    // The same 10,000 keys as an Apple String Catalog with German localizations (what `tms push`
    // sends for each language of an app's Localizable.xcstrings).
    const catalog = Buffer.from(FORMATS.xcstrings.serialize(entries, { language: 'de', source: { language: 'en', values: new Map() } }));
    rows.push(
      await row('import-10k-new-xcstrings', STANDARD_SHAPE.keys, catalog.length, '<1.5s (postgres), <3s (embedded)', async () => {
        const runs: number[] = [];
        for (let i = 0; i < IMPORT_RUNS; i++) {
          const apiKey = await freshProject(http, adminToken, standard.accountId, ['de']);
          runs.push(round3(await timedImport(http, apiKey, 'de', catalog, 'xcstrings')));
        }
        return { runs };
      }, (r) => r.seconds < (mode === 'postgres' ? 1.5 : 3)),
    );

    // The same import into a project whose glossary forbids 1,000 words (the check forbidden_terms
    // judges each of the 10,000 values; three of the words are in a fifth of them): what forbidden
    // terms add to an import, beside the row above.
    const forbidden = forbiddenGlossaryFile();
    rows.push(
      await row('import-10k-json-1k-forbidden', STANDARD_SHAPE.keys, de.length, '<1.5s (postgres), <3s (embedded)', async () => {
        const runs: number[] = [];
        let warned = 0;
        for (let i = 0; i < IMPORT_RUNS; i++) {
          // The same project as the row above (German alone, its source language): the two differ only by the glossary.
          const apiKey = await freshProject(http, adminToken, standard.accountId, ['de']);
          await timedGlossaryImport(http, apiKey, forbidden, FORBIDDEN_TERMS);
          const started = performance.now();
          const answer = await http.json<{ quality_warnings: { count: number } }>('POST', '/v1/import/de?format=json', 200, { headers: { 'X-API-Key': apiKey }, raw: de });
          runs.push(round3((performance.now() - started) / 1000));
          warned = answer.quality_warnings.count;
        }
        if (warned === 0) throw new Error('no value was warned about: the forbidden words were not judged');
        return { runs };
      }, (r) => r.seconds < (mode === 'postgres' ? 1.5 : 3)),
    );
    say(`import of ${STANDARD_SHAPE.keys} new keys with 1,000 forbidden terms: ${rows.at(-1)!.seconds} s`);

    // A tag across the project (PATCH /v1/keys/tags/{tag}): every one of 10,000 keys renamed, one
    // key.tagged each, in one transaction; renamed back and forth, then the tag deleted from them all.
    rows.push(
      await row('tag-rename-10k', STANDARD_SHAPE.keys, 0, '<2s', async () => {
        const apiKey = await freshProject(http, adminToken, standard.accountId, ['de']);
        const headers = { 'X-API-Key': apiKey };
        await http.json('POST', '/v1/import/de?format=json&status=approved&tag=bench-a', 200, { headers, raw: de });
        const runs: number[] = [];
        const names = ['bench-a', 'bench-b'];
        for (let i = 0; i < IMPORT_RUNS; i++) {
          const [from, to] = [names[i % 2]!, names[(i + 1) % 2]!];
          const started = performance.now();
          const renamed = await http.json<{ changed: number }>('PATCH', `/v1/keys/tags/${from}`, 200, { headers, json: { name: to } });
          runs.push(round3((performance.now() - started) / 1000));
          if (renamed.changed !== STANDARD_SHAPE.keys) throw new Error(`renamed ${renamed.changed} keys, not ${STANDARD_SHAPE.keys}`);
        }
        const last = names[IMPORT_RUNS % 2]!;
        const started = performance.now();
        await http.json('DELETE', `/v1/keys/tags/${last}`, 200, { headers });
        say(`tag deleted from ${STANDARD_SHAPE.keys} keys: ${round3((performance.now() - started) / 1000)} s`);
        return { runs };
      }, (r) => r.seconds < 2),
    );
    say(`tag renamed on ${STANDARD_SHAPE.keys} keys: ${rows.at(-1)!.seconds} s`);

    // The same 10,000 keys imported again with every text changed: each value is overwritten, and
    // the import records one translation.written per value (its previous text, for History).
    const changed = flatFile('de', 1, (i) => `${valueFor(i, 1, 'de')} (v2)`);
    rows.push(
      await row('import-10k-update-json', STANDARD_SHAPE.keys, changed.length, '<2s (postgres), <4s (embedded)', async () => {
        const runs: number[] = [];
        for (let i = 0; i < IMPORT_RUNS; i++) {
          const apiKey = await freshProject(http, adminToken, standard.accountId, ['de']);
          await timedImport(http, apiKey, 'de', de);
          runs.push(round3(await timedImport(http, apiKey, 'de', changed)));
        }
        return { runs };
      }, (r) => r.seconds < (mode === 'postgres' ? 2 : 4)),
    );
    say(`re-import of ${STANDARD_SHAPE.keys} keys, every text changed: ${rows.at(-1)!.seconds} s`);

    // A glossary file (POST /v1/glossary/import): 10,000 terms (the most a project keeps) with
    // descriptions and two translations, as CSV, into a fresh project; the same file again (every
    // term matched, nothing to write); then the glossary exported as CSV and as TBX.
    const glossaryCsv = glossaryFile();
    let glossaryKey = '';
    rows.push(
      await row('glossary-import-10k-csv', GLOSSARY_TERMS, glossaryCsv.length, '<2s (postgres), <4s (embedded)', async () => {
        const runs: number[] = [];
        for (let i = 0; i < IMPORT_RUNS; i++) {
          glossaryKey = await freshProject(http, adminToken, standard.accountId, ['en', 'de', 'fr']);
          runs.push(round3(await timedGlossaryImport(http, glossaryKey, glossaryCsv, GLOSSARY_TERMS)));
        }
        return { runs };
      }, (r) => r.seconds < (mode === 'postgres' ? 2 : 4)),
    );
    rows.push(
      await row('glossary-reimport-10k-csv', GLOSSARY_TERMS, glossaryCsv.length, '<1s (postgres), <2s (embedded)', async () => {
        const runs: number[] = [];
        for (let i = 0; i < IMPORT_RUNS; i++) runs.push(round3(await timedGlossaryImport(http, glossaryKey, glossaryCsv, 0)));
        return { runs };
      }, (r) => r.seconds < (mode === 'postgres' ? 1 : 2)),
    );
    for (const format of ['csv', 'tbx']) {
      rows.push(
        await row(`glossary-export-10k-${format}`, GLOSSARY_TERMS, 0, '<0.5s', async () => {
          const runs: number[] = [];
          let bytes = 0;
          for (let i = 0; i < EXPORT_RUNS; i++) {
            const started = performance.now();
            const res = await http.send('GET', `/v1/glossary/export?format=${format}`, { headers: { 'X-API-Key': glossaryKey } });
            if (res.status !== 200) throw new Error(`glossary export ${format}: ${res.status} ${res.body.toString('utf8').slice(0, 300)}`);
            runs.push(round3((performance.now() - started) / 1000));
            bytes = res.body.length;
          }
          return { runs, bytes };
        }, (r) => r.seconds < 0.5),
      );
    }
    say(`glossary of ${GLOSSARY_TERMS} terms: ${rows.slice(-4).map((r) => `${r.name} ${r.seconds}s`).join(', ')}`);

    // The same seed as the single-call one (10,000 keys x 3 languages), through three imports.
    let seedThroughImport: FilesReport['seedThroughImport'] = null;
    try {
      const apiKey = await freshProject(http, adminToken, standard.accountId, [...STANDARD_SHAPE.languages]);
      let seconds = 0;
      for (const [index, language] of STANDARD_SHAPE.languages.entries()) seconds += await timedImport(http, apiKey, language, flatFile(language, index));
      seedThroughImport = { seconds: round3(seconds), singleCallSeconds: singleCallSeedSeconds, speedup: Math.round((singleCallSeedSeconds / seconds) * 10) / 10 };
      say(`seed through import: ${seedThroughImport.seconds} s against ${singleCallSeedSeconds} s through single calls (${seedThroughImport.speedup}x)`);
    } catch (error) {
      say(`seed through import FAILED: ${error instanceof Error ? error.message : String(error)}`);
    }

    // Memory: a file just under 10 MiB (10,000 values of about 1,000 characters).
    const big = flatFile('de', 1, (i) => `${i} `.padEnd(1_000, 'abcdefghij'));
    rows.push(
      await row('import-10mib-json', STANDARD_SHAPE.keys, big.length, 'extra peak RSS <200MiB', async () => {
        const apiKey = await freshProject(http, adminToken, standard.accountId, ['de']);
        const before = await readMemory(service.pid);
        const reset = await resetPeakMemory(service.pid);
        const seconds = round3(await timedImport(http, apiKey, 'de', big));
        const after = await readMemory(service.pid);
        const extra = reset && before && after ? after.peak - before.rss : null;
        return { runs: [seconds], extraPeakBytes: extra };
      }, (r) => (r.extraPeakBytes === null ? null : r.extraPeakBytes < 200 * 2 ** 20)),
    );
    say(`import of a ${(big.length / 2 ** 20).toFixed(1)} MiB file: ${rows.at(-1)!.seconds} s, extra peak ${Math.round((rows.at(-1)!.extraPeakBytes ?? NaN) / 2 ** 20)} MiB`);

    // Exports of the standard project's approved German values (9,000 of 10,000 keys), every format;
    // then one group as an i18next namespace file (200 keys named without `g07.`), as `tms pull`
    // asks for each file of a `{group}` mapping; then the .strings half of an iOS pair.
    const exports = [
      ...EXPORT_FORMATS.map((format) => ({ name: `export-${format}`, path: `/v1/export/de?format=${format}${format.startsWith('xliff') ? '&source=en' : ''}`, entries: STANDARD_SHAPE.keys })),
      { name: 'export-i18next-namespace', path: '/v1/export/de?format=i18next&namespace=g07', entries: STANDARD_SHAPE.keys / STANDARD_SHAPE.groups },
      // The .strings half of an iOS pair (`tms pull` with a .stringsdict mapped beside it): every
      // value read is checked for a plural, and only the others written.
      { name: 'export-ios-strings-split', path: '/v1/export/de?format=ios-strings&plurals=none', entries: STANDARD_SHAPE.keys },
      // A pseudo-language made from the English values (`tms pull --pseudo en-XA`): every value
      // masked as machine translation masks it, accented, lengthened, put back together.
      { name: 'export-json-pseudo', path: '/v1/export/en?format=json&pseudo=en-XA', entries: STANDARD_SHAPE.keys },
    ];
    for (const { name, path, entries } of exports) {
      rows.push(
        await row(name, 0, 0, '<0.3s', async () => {
          const runs: number[] = [];
          let bytes = 0;
          for (let i = 0; i < EXPORT_RUNS; i++) {
            const started = performance.now();
            const res = await http.send('GET', path, { headers: { 'X-API-Key': standard.apiKey } });
            if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body.toString('utf8').slice(0, 300)}`);
            runs.push(round3((performance.now() - started) / 1000));
            bytes = res.body.length;
          }
          return { runs, bytes, entries };
        }, (r) => r.seconds < 0.3),
      );
    }
    say(`exports: ${rows.filter((r) => r.name.startsWith('export-')).map((r) => `${r.name.slice(7)} ${r.seconds}s`).join(', ')}`);
    return { rows, seedThroughImport };
  } finally {
    http.close();
  }
}
