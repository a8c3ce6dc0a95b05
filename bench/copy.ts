// `npm run copy-to-postgres` timed as a user runs it (`--only copy`, and in every full run with
// DATABASE_URL): an embedded service of its own gets the standard shape (10,000 keys x 3 languages)
// through three imports and stops; then the command copies its data dir into a new, empty database
// on DATABASE_URL's server, three times, each into a database of its own.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createThrowawayDatabase } from './database.ts';
import { createHttpClient } from './http.ts';
import { createBenchProject, keyName, STANDARD_SHAPE, valueFor } from './seed.ts';
import { readMemory, REPO_ROOT, startService } from './server-process.ts';
import type { FileRow } from './files.ts';

const RUNS = 3;
const TARGET_SECONDS = 10;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function measureCopyToPostgres(adminUrl: string, say: (line: string) => void): Promise<FileRow> {
  const row: FileRow = {
    name: 'copy-to-postgres-10k-x3',
    entries: STANDARD_SHAPE.keys,
    bytes: 0,
    runs: [],
    seconds: NaN,
    extraPeakBytes: null,
    target: `<${TARGET_SECONDS}s`,
    met: null,
  };
  const dataDir = await mkdtemp(join(tmpdir(), 'tms-bench-copy-'));
  try {
    const adminToken = 'bench_copy_admin_token_0123456789';
    const service = await startService({ dataDir, adminToken });
    try {
      const http = createHttpClient(service.url, 2);
      try {
        const project = await createBenchProject(http, adminToken, 'bench copy');
        const headers = { 'X-API-Key': project.apiKey };
        for (const [index, language] of STANDARD_SHAPE.languages.entries()) {
          await http.json('POST', '/v1/languages', 201, { headers, json: { code: language } });
          const file: Record<string, string> = {};
          for (let i = 0; i < STANDARD_SHAPE.keys; i++) file[keyName(STANDARD_SHAPE, i)] = valueFor(i, index, language);
          await http.json('POST', `/v1/import/${language}?format=json&status=approved`, 200, { headers, raw: Buffer.from(JSON.stringify(file)) });
        }
      } finally {
        http.close();
      }
    } finally {
      await service.stop();
    }
    let peak = 0;
    for (let run = 0; run < RUNS; run++) {
      const target = await createThrowawayDatabase(adminUrl);
      try {
        const started = performance.now();
        const child = spawn(process.execPath, ['--import', 'tsx', 'functions/copy-to-postgres.ts', target.url], {
          cwd: REPO_ROOT,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, TMS_DATA_DIR: dataDir },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout!.on('data', (d) => (output += d));
        child.stderr!.on('data', (d) => (output += d));
        // The command's peak memory, sampled (VmHWM cannot be read once it has exited).
        const sampler = setInterval(() => void readMemory(child.pid!).then((m) => m && (peak = Math.max(peak, m.peak))), 50);
        const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
        clearInterval(sampler);
        if (code !== 0) throw new Error(`copy-to-postgres exited ${code}: ${output.slice(-500)}`);
        row.runs.push(Math.round(performance.now() - started) / 1000);
        say(`copy-to-postgres run ${run + 1}/${RUNS}: ${row.runs.at(-1)} s (${/Copied ([\d,]+) rows/.exec(output)?.[1] ?? '?'} rows)`);
      } finally {
        await target.drop();
      }
    }
    row.seconds = median(row.runs);
    row.extraPeakBytes = peak || null;
    row.met = row.seconds < TARGET_SECONDS;
  } catch (error) {
    row.failure = error instanceof Error ? error.message : String(error);
    say(`copy-to-postgres FAILED: ${row.failure}`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  return row;
}
