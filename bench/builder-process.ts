// The builder alone, in a fresh process, as the builder Lambda runs it: core's buildProjectCache
// against the benchmark database, writing to a scratch directory. Its own peak RSS (VmHWM) is then
// the builder's memory and nothing else's (the service process also holds its serving cache, its
// pools and whatever the seed left on its heap). Started by bench/rebuild.ts; prints one JSON line.
//
// Env: BENCH_DATABASE_URL, BENCH_PROJECT_ID, BENCH_OBJECTS_DIR.
import { readFile } from 'node:fs/promises';
import { createNoEdgeCache } from '../core/adapters/edge-cache-none.ts';
import { createFsObjectStore } from '../core/adapters/object-store-fs.ts';
import { createEventBus } from '../core/events/event-bus.ts';
import { buildProjectCache } from '../core/cache/build-project-cache.ts';
import { createSql } from '../core/db/client.ts';
import { systemClock } from '../core/deps.ts';
import { silentLogger } from '../core/log.ts';

export type StandaloneBuild = {
  ms: number;
  files: number | null;
  status: string;
  /** RSS once connected, before the build. */
  baselineRssBytes: number;
  /** VmHWM of this process over its whole life. */
  peakRssBytes: number;
};

async function memory(): Promise<{ rss: number; peak: number }> {
  const status = await readFile('/proc/self/status', 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

async function main() {
  const { BENCH_DATABASE_URL: url, BENCH_PROJECT_ID: projectId, BENCH_OBJECTS_DIR: objectsDir } = process.env;
  if (!url || !projectId || !objectsDir) throw new Error('BENCH_DATABASE_URL, BENCH_PROJECT_ID and BENCH_OBJECTS_DIR are required');
  const sql = createSql(url, { max: 2, prepare: true, connectTimeoutSeconds: 5 });
  try {
    // A new request sequence number, as POST /v1/cache/rebuild records it, so the build is not
    // "covered"; claimed (a lease, as a worker takes it) so that no server's rebuild worker on this
    // database builds it at the same time.
    const [row] = await sql<{ seq: number }[]>`
      insert into cache_state (project_id, requested_seq, lease_owner, lease_until) values (${projectId}, 1, 'bench-builder', now() + interval '1 hour')
      on conflict (project_id) do update set requested_seq = cache_state.requested_seq + 1,
        lease_owner = excluded.lease_owner, lease_until = excluded.lease_until
      returning requested_seq::int as seq`;
    const before = await memory();
    const started = performance.now();
    const result = await buildProjectCache(
      { sql, events: createEventBus(silentLogger), objects: createFsObjectStore(objectsDir), edge: createNoEdgeCache(), clock: systemClock, log: silentLogger },
      { projectId, seq: row!.seq },
    );
    const ms = Math.round(performance.now() - started);
    await sql`update cache_state set lease_owner = null, lease_until = null where project_id = ${projectId} and lease_owner = 'bench-builder'`;
    const after = await memory();
    const report: StandaloneBuild = {
      ms,
      files: result.status === 'built' ? result.files : null,
      status: result.status,
      baselineRssBytes: before.rss,
      peakRssBytes: after.peak,
    };
    process.stdout.write(JSON.stringify(report) + '\n');
  } finally {
    await sql.end({ timeout: 5 });
  }
}

main().catch((error) => {
  process.stderr.write((error instanceof Error ? (error.stack ?? error.message) : String(error)) + '\n');
  process.exit(1);
});
