// Turns measurements into verdicts and tables: a fixed-width table for the terminal, the same as
// markdown for the README (bench/results/latest-<mode>.md), and the full JSON next to it.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Machine } from './machine.ts';
import type { LoadResult } from './measure.ts';
import type { RebuildRun } from './rebuild.ts';
import type { Scenario, Target } from './scenarios.ts';
import type { SeedReport } from './seed.ts';
import type { FileRow, FilesReport } from './files.ts';
import type { AssistantRow, AssistantsReport } from './assistants.ts';
import { SDK_FOOTNOTE, sdkLines, type SdkReport } from './sdk.ts';
import { REPO_ROOT } from './server-process.ts';

export type ScenarioRow = {
  name: string;
  family: Scenario['family'];
  connections: number;
  expectedStatus: number;
  request: { method: string; path: string; headers: Record<string, string> };
  /** Body bytes of the probe response (as sent: compressed for br/gzip). */
  bodyBytes: number;
  /** Median of a few requests sent one at a time, before the load (the unloaded latency). */
  aloneMs: number | null;
  contentEncoding: string | null;
  service: LoadResult | null;
  ceiling: LoadResult | null;
  /** service req/s divided by ceiling req/s. */
  ratio: number | null;
  targets: { target: Target; label: string; met: boolean }[];
  /** Zero errors, zero timeouts and no response with another status than expected. */
  clean: boolean;
  failure?: string;
};

export type RebuildRow = {
  name: string;
  /** In the service process (timed through the API), or core's builder alone in a fresh process. */
  where: 'service' | 'standalone';
  keys: number;
  languages: number;
  runs: RebuildRun[];
  /** Median of the runs' times. */
  seconds: number;
  targetSeconds: number | null;
  targetPeakBytes: number | null;
  met: boolean | null;
  failure?: string;
};

export type Report = {
  startedAt: string;
  finishedAt: string;
  totalSeconds: number;
  mode: 'embedded' | 'postgres';
  machine: Machine;
  settings: {
    durationSeconds: number;
    /** The service and the ceiling measured in this many turns each, ABBA (bench/measure.ts). */
    turns: number;
    warmupSeconds: number;
    pipelining: 1;
    only: string | null;
    large: boolean;
    profile: boolean;
    /** 'after': measured as seeded, then again after ANALYZE (the default); 'first': ANALYZE before everything. */
    analyze: 'after' | 'first';
  };
  seed: SeedReport;
  largeSeed: SeedReport | null;
  scenarios: ScenarioRow[];
  rebuilds: RebuildRow[];
  /** Imports and exports (bench/files.ts); null when the run skipped them (--only). */
  files: FilesReport | null;
  /** Translation memory and machine translation (bench/assistants.ts); null when skipped (--only). */
  assistants?: AssistantsReport | null;
  /** The SDK's time to first translation (bench/sdk.ts); null when the run skipped it (--only). */
  sdk?: SdkReport | null;
  notes: string[];
};

export function targetLabel(target: Target): string {
  switch (target.kind) {
    case 'ratio':
      return `ratio>=${target.min}`;
    case 'p99':
      return `p99<${target.maxMs}ms`;
    case 'faster-than':
      return `>${target.scenario}`;
    case 'rps':
      return `>=${target.min.toLocaleString('en-US')}req/s`;
  }
}

/** Rows measured again after ANALYZE carry this suffix (bench/run.ts). */
export const ANALYZED_SUFFIX = ' (analyzed)';
const analyzedSuffixOf = (name: string) => (name.endsWith(ANALYZED_SUFFIX) ? ANALYZED_SUFFIX : '');

/** Fills in `targets` and `clean` once every row is measured ('faster-than' needs its peer). */
export function evaluate(rows: ScenarioRow[], scenarios: Scenario[]): void {
  const byName = new Map(rows.map((row) => [row.name, row]));
  for (const row of rows) {
    const scenario = scenarios.find((s) => s.name === row.name)!;
    const s = row.service;
    row.clean = !!s && !row.failure && s.responses > 0 && s.errors === 0 && s.timeouts === 0 && s.unexpectedStatus === 0;
    row.targets = scenario.targets.map((target) => {
      let met = false;
      if (s) {
        if (target.kind === 'ratio') met = row.ratio !== null && row.ratio >= target.min;
        if (target.kind === 'p99') met = s.latencyMs.p99 < target.maxMs;
        if (target.kind === 'rps') met = s.requestsPerSecond >= target.min;
        if (target.kind === 'faster-than') {
          // A row measured after ANALYZE compares with its peer measured after ANALYZE too.
          const peer = byName.get(target.scenario + analyzedSuffixOf(row.name))?.service;
          met = !!peer && s.requestsPerSecond > peer.requestsPerSecond;
        }
      }
      return { target, label: targetLabel(target), met };
    });
  }
}

/**
 * A missed target's label. A latency target the bare ceiling missed as well (it replays the same
 * bytes with nothing else to do) says so with the ceiling's p99: then the machine, not the service,
 * sets the bound (cached-language's 544 KB answers: the load generator alone spends about 0.85 ms
 * of CPU parsing each).
 */
export function missedLabel(row: Pick<ScenarioRow, 'ceiling'>, t: ScenarioRow['targets'][number]): string {
  const ceilingP99 = row.ceiling?.latencyMs.p99;
  if (t.target.kind !== 'p99' || ceilingP99 === undefined || ceilingP99 < t.target.maxMs) return t.label;
  return `${t.label} (ceiling's ${ceilingP99.toFixed(1)}ms too)`;
}

export function verdict(row: ScenarioRow): string {
  if (row.failure) return 'FAILED';
  const missed = row.targets.filter((t) => !t.met).map((t) => missedLabel(row, t));
  if (row.service && row.service.responses < row.connections) missed.unshift('too few responses (raise --duration)');
  else if (!row.clean) missed.unshift('errors');
  if (missed.length) return `MISSED ${missed.join(', ')}`;
  return row.targets.length ? 'met' : 'ok';
}

const n0 = (n: number | null | undefined) => (n === null || n === undefined || Number.isNaN(n) ? '-' : Math.round(n).toLocaleString('en-US'));
const n2 = (n: number | null | undefined) => (n === null || n === undefined || Number.isNaN(n) ? '-' : n.toFixed(2));
const mib = (bytes: number | null) => (bytes === null ? '-' : `${Math.round(bytes / 2 ** 20)} MiB`);

type Column = { title: string; right?: boolean; cell: (row: ScenarioRow) => string };

const SCENARIO_COLUMNS: Column[] = [
  { title: 'scenario', cell: (r) => r.name },
  { title: 'conns', right: true, cell: (r) => String(r.connections) },
  { title: 'req/s', right: true, cell: (r) => n0(r.service?.requestsPerSecond) },
  { title: 'p50 ms', right: true, cell: (r) => n2(r.service?.latencyMs.p50) },
  { title: 'p99 ms', right: true, cell: (r) => n2(r.service?.latencyMs.p99) },
  { title: 'alone ms', right: true, cell: (r) => n2(r.aloneMs) },
  { title: 'body B', right: true, cell: (r) => n0(r.bodyBytes) },
  { title: 'errors', right: true, cell: (r) => (r.service ? String(r.service.errors + r.service.timeouts) : '-') },
  { title: 'non-2xx*', right: true, cell: (r) => (r.service ? String(r.service.unexpectedStatus) : '-') },
  { title: 'ceiling req/s', right: true, cell: (r) => n0(r.ceiling?.requestsPerSecond) },
  { title: 'ceil p99', right: true, cell: (r) => n2(r.ceiling?.latencyMs.p99) },
  { title: 'ratio', right: true, cell: (r) => n2(r.ratio) },
  { title: 'svc us', right: true, cell: (r) => n0(r.service?.cpu?.server) },
  { title: 'db us', right: true, cell: (r) => n0(r.service?.cpu?.database) },
  { title: 'client us', right: true, cell: (r) => n0(r.service?.cpu?.client) },
  { title: 'ceil us', right: true, cell: (r) => n0(r.ceiling?.cpu?.server) },
  { title: 'target', cell: (r) => r.targets.map((t) => t.label).join(' ') || '-' },
  { title: 'result', cell: verdict },
];

type RebuildColumn = { title: string; right?: boolean; cell: (row: RebuildRow) => string };

const REBUILD_COLUMNS: RebuildColumn[] = [
  { title: 'rebuild', cell: (r) => r.name },
  { title: 'where', cell: (r) => (r.where === 'service' ? 'service (API)' : 'builder alone') },
  { title: 'keys x langs', right: true, cell: (r) => `${r.keys.toLocaleString('en-US')} x ${r.languages}` },
  { title: 'runs', right: true, cell: (r) => String(r.runs.length) },
  { title: 'time s', right: true, cell: (r) => (r.runs.length ? r.seconds.toFixed(2) : '-') },
  { title: 'min-max s', right: true, cell: (r) => range(r.runs.map((x) => x.seconds)) },
  { title: 'builder s', right: true, cell: (r) => range(r.runs.map((x) => (x.builderMs ?? NaN) / 1000)) },
  { title: 'files', right: true, cell: (r) => n0(r.runs[0]?.files) },
  { title: 'RSS before', right: true, cell: (r) => mib(r.runs.at(-1)?.baselineRssBytes ?? null) },
  { title: 'peak RSS', right: true, cell: (r) => mib(maxOf(r.runs.map((x) => x.peakRssBytes))) },
  {
    title: 'target',
    cell: (r) =>
      [r.targetSeconds ? `<${r.targetSeconds}s` : '', r.targetPeakBytes ? `peak<${Math.round(r.targetPeakBytes / 2 ** 20)}MiB` : '']
        .filter(Boolean)
        .join(' ') || '-',
  },
  { title: 'result', cell: (r) => (r.failure ? 'FAILED' : r.met === null ? '-' : r.met ? 'met' : 'MISSED') },
];

function range(values: number[]): string {
  const finite = values.filter(Number.isFinite);
  if (!finite.length) return '-';
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  return lo === hi ? lo.toFixed(2) : `${lo.toFixed(2)}-${hi.toFixed(2)}`;
}

function maxOf(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? Math.max(...known) : null;
}

const FILE_COLUMNS: { title: string; right?: boolean; cell: (row: FileRow) => string }[] = [
  { title: 'files', cell: (r) => r.name },
  { title: 'keys', right: true, cell: (r) => r.entries.toLocaleString('en-US') },
  { title: 'file bytes', right: true, cell: (r) => r.bytes.toLocaleString('en-US') },
  { title: 'runs', right: true, cell: (r) => String(r.runs.length) },
  { title: 'time s', right: true, cell: (r) => (r.runs.length ? r.seconds.toFixed(3) : '-') },
  { title: 'min-max s', right: true, cell: (r) => range(r.runs) },
  { title: 'extra peak RSS', right: true, cell: (r) => mib(r.extraPeakBytes) },
  { title: 'target', cell: (r) => r.target },
  { title: 'result', cell: (r) => (r.failure ? 'FAILED' : r.met === null ? '-' : r.met ? 'met' : 'MISSED') },
];

function filesLines(report: Report, table: (columns: typeof FILE_COLUMNS, rows: FileRow[]) => string): string[] {
  if (!report.files) return [];
  const seed = report.files.seedThroughImport;
  return [
    '',
    table(FILE_COLUMNS, report.files.rows),
    ...(seed
      ? [
          '',
          `seeding 10,000 keys x 3 languages: ${seed.seconds.toFixed(2)} s through three imports, ${seed.singleCallSeconds} s through single calls: ${seed.speedup}x faster (target >= 20x: ${seed.speedup >= 20 ? 'met' : 'MISSED'})`,
        ]
      : []),
  ];
}

const ASSISTANT_COLUMNS: { title: string; right?: boolean; cell: (row: AssistantRow) => string }[] = [
  { title: 'assistants', cell: (r) => r.name },
  { title: 'figure', right: true, cell: (r) => (Number.isFinite(r.value) ? `${r.value.toLocaleString('en-US')} ${r.unit}` : '-') },
  { title: 'p99 ms', right: true, cell: (r) => (r.p99 === undefined ? '-' : r.p99.toFixed(2)) },
  { title: 'what', cell: (r) => r.failure ?? r.detail },
  { title: 'target', cell: (r) => r.target },
  { title: 'result', cell: (r) => (r.failure ? 'FAILED' : r.met === null ? '-' : r.met ? 'met' : 'MISSED') },
];

function assistantLines(report: Report, table: (columns: typeof ASSISTANT_COLUMNS, rows: AssistantRow[]) => string): string[] {
  return report.assistants ? ['', table(ASSISTANT_COLUMNS, report.assistants.rows)] : [];
}

function textTable<R>(columns: { title: string; right?: boolean; cell: (row: R) => string }[], rows: R[]): string {
  const cells = rows.map((row) => columns.map((c) => c.cell(row)));
  const widths = columns.map((c, i) => Math.max(c.title.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) =>
    values.map((v, i) => (columns[i]!.right ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(columns.map((c) => c.title)), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

function markdownTable<R>(columns: { title: string; right?: boolean; cell: (row: R) => string }[], rows: R[]): string {
  const line = (values: string[]) => `| ${values.map((v) => v.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [
    line(columns.map((c) => c.title)),
    `|${columns.map((c) => (c.right ? '---:' : '---')).join('|')}|`,
    ...rows.map((row) => line(columns.map((c) => c.cell(row)))),
  ].join('\n');
}

/** Issue 13: the seed's 10,000 keys and 30,000 values through single calls, 16 in flight, in under 12 s. */
const SEED_TARGET_SECONDS = 12;

/** "; CPU per request: service 340 us, database 383 us, client 62 us; machine 21% idle", what was measured of it. */
export function seedCpuText(seed: Pick<SeedReport, 'cpu' | 'idleShare'>): string {
  const parts: string[] = [];
  const cpu = seed.cpu;
  if (cpu) {
    const each = [
      cpu.server === null ? null : `service ${cpu.server} us`,
      cpu.database === null ? null : `database ${cpu.database} us`,
      `client ${cpu.client} us`,
    ].filter((part) => part !== null);
    parts.push(`CPU per request: ${each.join(', ')}`);
  }
  if (seed.idleShare !== undefined && seed.idleShare !== null) parts.push(`machine ${Math.round(seed.idleShare * 100)}% idle`);
  return parts.length === 0 ? '' : `; ${parts.join('; ')}`;
}

function headerLines(report: Report): string[] {
  const m = report.machine;
  const s = report.seed;
  const lines = [
    `tms benchmark, ${report.startedAt} (${report.mode}), ${Math.round(report.totalSeconds)} s in all`,
    `machine: ${m.os}; ${m.cpu}, ${m.cores} cores; ${m.memoryGiB} GiB; node ${m.node}; load average at start ${m.loadAverageAtStart.join(' ')}`,
    `database: ${m.database}; counters: ${m.counters}; code: ${m.code}`,
    `settings: ${report.settings.durationSeconds} s per measurement in ${report.settings.turns} turns, alternated with the ceiling's (ABBA), after ${report.settings.warmupSeconds} s warm-up, pipelining 1; ` +
      'autocannon in the orchestrator process; service and ceiling (bare node:http replaying the same bytes) in child processes, all on this machine',
    `seed (public API, 16 in flight): ${s.keys.toLocaleString('en-US')} keys in ${s.groups} groups x ${s.languages} languages = ` +
      `${s.translations.toLocaleString('en-US')} values, ${s.requests.toLocaleString('en-US')} requests in ${s.seconds} s (${s.requestsPerSecond.toLocaleString('en-US')} req/s; ` +
      `target < ${SEED_TARGET_SECONDS} s: ${s.seconds < SEED_TARGET_SECONDS ? 'met' : 'MISSED'})` +
      seedCpuText(s) +
      (report.settings.analyze === 'first'
        ? `, then ANALYZE (${s.analyzeMs ?? '?'} ms) before any measurement (--analyze-first)`
        : `; measured as seeded (the planner's statistics are whatever the service itself refreshed), then the live rows and one rebuild again after an ANALYZE${s.analyzeMs !== undefined ? ` (${s.analyzeMs} ms)` : ''}: rows "(analyzed)"`),
  ];
  if (report.largeSeed) {
    const l = report.largeSeed;
    lines.push(
      `large seed (INSERT ... SELECT through core, batches of 10,000 keys): ${l.keys.toLocaleString('en-US')} keys in ${l.groups} groups x ` +
        `${l.languages} languages = ${l.translations.toLocaleString('en-US')} values in ${l.seconds} s`,
    );
  }
  return lines;
}

const FOOTNOTES = [
  '* non-2xx: responses with another status than the one expected (200, 201 for key creation, 304 for revalidations).',
  'ratio: service req/s / ceiling req/s, the ceiling measured with the same client and settings, in turns with the service (service, ceiling, ceiling, service, ...), so that both see the same stretches of the machine\'s time.',
  'svc/db/client/ceil us: CPU microseconds (user + system) per response over the measured run, of the service process, of the Postgres processes (real Postgres on this machine only; "-" in embedded mode, where PGlite is the service\'s own CPU), of the load generator (this process), and of the ceiling server in its run. They share the machine\'s cores: their sum bounds req/s.',
  'errors: connection errors and timeouts. Latencies are per response, measured by the client (p50/p99 over the whole measured run); alone ms: median of 5 requests sent one at a time before the load.',
  'rebuild time: service (API) = POST /v1/cache/rebuild to the first GET /v1/cache/status showing the new build (polled every 10 ms); builder alone = the core build call in a fresh process.',
  'files: import = POST /v1/import of a flat JSON file into a fresh project, timed by the client (median of the runs); export = GET /v1/export of the standard project\'s approved German values (median of 5); extra peak RSS = VmHWM during the import minus RSS before it; copy-to-postgres = the command (npm run copy-to-postgres) copying an embedded database of 10,000 keys x 3 languages (seeded through three imports) into a new, empty database on the same PostgreSQL, from start to exit (median of 3), its RSS column being the command\'s own peak (sampled every 50 ms).',
  'peak RSS: service (API) = VmHWM of the whole service process (HTTP server, pools, serving cache and the in-process builder; in embedded mode PGlite too), reset just before the POST, "RSS before" being its RSS then; builder alone = VmHWM of a fresh process that only runs the build (what the builder Lambda holds).',
];

export function renderText(report: Report): string {
  return [
    ...headerLines(report),
    '',
    textTable(SCENARIO_COLUMNS, report.scenarios),
    '',
    textTable(REBUILD_COLUMNS, report.rebuilds),
    ...filesLines(report, textTable),
    ...assistantLines(report, textTable),
    ...sdkLines(report.sdk, textTable),
    '',
    ...FOOTNOTES,
    ...(report.sdk ? [SDK_FOOTNOTE] : []),
    ...report.notes.map((note) => `note: ${note}`),
  ].join('\n');
}

export function renderMarkdown(report: Report): string {
  return [
    `### Benchmark (${report.mode}), ${report.startedAt}`,
    '',
    ...headerLines(report).slice(1).map((line) => `- ${line}`),
    '',
    markdownTable(SCENARIO_COLUMNS, report.scenarios),
    '',
    markdownTable(REBUILD_COLUMNS, report.rebuilds),
    ...filesLines(report, markdownTable),
    ...assistantLines(report, markdownTable),
    ...sdkLines(report.sdk, markdownTable),
    '',
    ...[...FOOTNOTES, ...(report.sdk ? [SDK_FOOTNOTE] : []), ...report.notes].map((line) => `- ${line}`),
    '',
  ].join('\n');
}

export const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');

/**
 * Writes <timestamp>-<mode>.json, and latest-<mode>.md unless the run was partial (--only): the
 * README's table must come from a whole run. Returns the paths written.
 */
export async function writeResults(report: Report): Promise<string[]> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const stamp = report.startedAt.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  const json = join(RESULTS_DIR, `${stamp}-${report.mode}.json`);
  await writeAtomically(json, JSON.stringify(report, null, 2) + '\n');
  if (report.settings.only !== null) return [json];
  const markdown = join(RESULTS_DIR, `latest-${report.mode}.md`);
  await writeAtomically(markdown, renderMarkdown(report));
  return [json, markdown];
}

async function writeAtomically(path: string, text: string) {
  const temp = `${path}.tmp`;
  await writeFile(temp, text);
  await rename(temp, path);
}
