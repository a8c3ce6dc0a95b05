// The JS SDK's time to first translation, as an app starting up meets it: a fresh createClient (what
// a new process or page load has) reading the standard project's German file (10,000 keys), from
// createClient to the resolved getTranslations. Cold: nothing stored. Warm: a directory storage
// (@tms/sdk/node) that an earlier run filled, so the manifest is revalidated (a 304) and the build's
// file is read from disk, not asked for. Offline: the same warm storage with the service unreachable.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../sdk/src/index.ts';
import { fileStorage } from '../sdk/src/node.ts';
import type { BenchProject } from './seed.ts';

export type SdkRow = {
  name: string;
  /** Milliseconds, one per fresh client. */
  runs: number[];
  p50Ms: number;
  maxMs: number;
  target: string;
  met: boolean | null;
  failure?: string;
};
export type SdkReport = { language: string; keys: number; rows: SdkRow[] };

const LANGUAGE = 'de';
const COLD_RUNS = 10;
const WARM_RUNS = 30;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** An address where nothing listens (a port bound and released). */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

async function firstTranslation(url: string, key: string, dir: string): Promise<{ ms: number; keys: number }> {
  const started = performance.now();
  const client = createClient({ url, key, storage: fileStorage(dir) });
  const values = await client.getTranslations(LANGUAGE);
  return { ms: performance.now() - started, keys: Object.keys(values).length };
}

function row(name: string, runs: number[], target: string, met: boolean | null): SdkRow {
  return { name, runs: runs.map(round2), p50Ms: round2(median(runs)), maxMs: round2(Math.max(...runs)), target, met };
}

export async function measureSdk(serviceUrl: string, project: BenchProject, say: (line: string) => void): Promise<SdkReport> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-bench-sdk-'));
  const report: SdkReport = { language: LANGUAGE, keys: 0, rows: [] };
  try {
    const cold: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      const { ms, keys } = await firstTranslation(serviceUrl, project.apiKey, join(dir, `cold-${i}`));
      cold.push(ms);
      report.keys = keys;
    }
    const warmDir = join(dir, 'warm');
    await firstTranslation(serviceUrl, project.apiKey, warmDir);
    const warm: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) warm.push((await firstTranslation(serviceUrl, project.apiKey, warmDir)).ms);
    // Offline: the storage is named after the server's address and key, so copy the address too:
    // the same storage directory read by a client whose server is gone.
    const dead = await deadUrl();
    const offlineDir = join(dir, 'offline');
    await primeFor(dead, serviceUrl, project.apiKey, offlineDir);
    const offline: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) offline.push((await firstTranslation(dead, project.apiKey, offlineDir)).ms);

    const coldP50 = median(cold);
    report.rows.push(
      row('sdk-first-translation-cold', cold, '-', null),
      row('sdk-first-translation-warm', warm, '< cold', median(warm) < coldP50),
      row('sdk-first-translation-offline', offline, '< cold', median(offline) < coldP50),
    );
    for (const r of report.rows) say(`${r.name}: p50 ${r.p50Ms} ms, max ${r.maxMs} ms (${r.runs.length} fresh clients)`);
  } catch (error) {
    report.rows.push({ name: 'sdk-first-translation', runs: [], p50Ms: NaN, maxMs: NaN, target: '-', met: null, failure: String(error) });
    say(`sdk: FAILED: ${String(error)}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return report;
}

/** Fills `dir` as a client of `deadUrl` would have while that server was up: fetched from `liveUrl`. */
async function primeFor(deadUrlValue: string, liveUrl: string, key: string, dir: string): Promise<void> {
  const forward: typeof fetch = (input, init) => fetch(String(input).replace(deadUrlValue, liveUrl), init);
  await createClient({ url: deadUrlValue, key, storage: fileStorage(dir), fetch: forward }).getTranslations(LANGUAGE);
}

const SDK_COLUMNS: { title: string; right?: boolean; cell: (row: SdkRow) => string }[] = [
  { title: 'sdk', cell: (r) => r.name },
  { title: 'fresh clients', right: true, cell: (r) => String(r.runs.length) },
  { title: 'p50 ms', right: true, cell: (r) => (r.runs.length ? r.p50Ms.toFixed(2) : '-') },
  { title: 'max ms', right: true, cell: (r) => (r.runs.length ? r.maxMs.toFixed(2) : '-') },
  { title: 'target', cell: (r) => r.target },
  { title: 'result', cell: (r) => (r.failure ? 'FAILED' : r.met === null ? '-' : r.met ? 'met' : 'MISSED') },
];

export const SDK_FOOTNOTE =
  'sdk: time to first translation = a fresh createClient (@tms/sdk, directory storage) until getTranslations of the standard project\'s German file resolves; cold = empty storage; warm = storage filled by an earlier client (manifest 304, build file read from disk); offline = warm storage, nothing listening.';

export function sdkLines(
  report: SdkReport | null | undefined,
  table: (columns: typeof SDK_COLUMNS, rows: SdkRow[]) => string,
): string[] {
  if (!report) return [];
  return ['', table(SDK_COLUMNS, report.rows), `(${report.keys.toLocaleString('en-US')} keys, language ${report.language})`];
}
