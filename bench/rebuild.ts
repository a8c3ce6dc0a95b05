// The rebuild, timed as a client sees it: from POST /v1/cache/rebuild to the first GET
// /v1/cache/status that shows the new build. The in-process builder runs inside the service
// process, so its memory is that process's peak RSS (VmHWM), reset just before the POST.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StandaloneBuild } from './builder-process.ts';
import { createHttpClient } from './http.ts';
import type { BenchProject } from './seed.ts';
import { readMemory, REPO_ROOT, resetPeakMemory, type ServiceProcess } from './server-process.ts';

export type RebuildRun = {
  /** POST to the first status poll showing the new build (standalone: the build call alone). */
  seconds: number;
  /** The builder's own figure, from its "cache built" log line. */
  builderMs: number | null;
  files: number | null;
  /** RSS of the service process just before the POST. */
  baselineRssBytes: number | null;
  /** Peak RSS of the whole service process during the build (VmHWM). */
  peakRssBytes: number | null;
  /** False when /proc/<pid>/clear_refs refused: the peak is then since the process started. */
  peakReset: boolean;
};

const POLL_INTERVAL_MS = 10;
const TIMEOUT_MS = 10 * 60_000;

type Status = { last_rebuilt_at: string | null; ready: boolean };

export async function timeRebuild(service: ServiceProcess, project: BenchProject): Promise<RebuildRun> {
  const http = createHttpClient(service.url, 2);
  const headers = { 'X-API-Key': project.apiKey };
  try {
    const before = await http.json<Status>('GET', '/v1/cache/status', 200, { headers });
    const baseline = await readMemory(service.pid);
    const peakReset = await resetPeakMemory(service.pid);
    const built = service.waitForLog((line) => line.msg === 'cache built' && line.project_id === project.projectId, TIMEOUT_MS);
    built.catch(() => {}); // awaited below; a rejection before then must not go unhandled

    const started = performance.now();
    await http.json('POST', '/v1/cache/rebuild', 202, { headers });
    for (;;) {
      const status = await http.json<Status>('GET', '/v1/cache/status', 200, { headers });
      if (status.ready && status.last_rebuilt_at !== before.last_rebuilt_at) break;
      if (performance.now() - started > TIMEOUT_MS) throw new Error(`rebuild not ready after ${TIMEOUT_MS / 1000} s`);
      await sleep(POLL_INTERVAL_MS);
    }
    const seconds = (performance.now() - started) / 1000;
    const after = await readMemory(service.pid);
    const line = await built.catch(() => undefined);
    return {
      seconds: Math.round(seconds * 1000) / 1000,
      builderMs: typeof line?.ms === 'number' ? line.ms : null,
      files: typeof line?.files === 'number' ? line.files : null,
      baselineRssBytes: baseline?.rss ?? null,
      peakRssBytes: after?.peak ?? null,
      peakReset,
    };
  } finally {
    http.close();
  }
}

/**
 * The same build in a fresh process of its own (bench/builder-process.ts), as the builder Lambda
 * runs it: its peak RSS is the builder's alone. Needs direct access to the database.
 */
export async function timeStandaloneBuild(databaseUrl: string, project: BenchProject): Promise<RebuildRun> {
  const objectsDir = await mkdtemp(join(tmpdir(), 'tms-bench-builder-'));
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/builder-process.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, BENCH_PROJECT_ID: project.projectId, BENCH_OBJECTS_DIR: objectsDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`standalone builder exited with ${code}: ${stderr.slice(-2000)}`);
    const build = JSON.parse(stdout.trim().split('\n').at(-1)!) as StandaloneBuild;
    if (build.status !== 'built') throw new Error(`standalone builder did not build: ${build.status}`);
    return {
      seconds: build.ms / 1000,
      builderMs: build.ms,
      files: build.files,
      baselineRssBytes: build.baselineRssBytes,
      peakRssBytes: build.peakRssBytes,
      peakReset: true,
    };
  } finally {
    await rm(objectsDir, { recursive: true, force: true });
  }
}
