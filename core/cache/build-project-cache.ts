// The builder: one core function behind both the SQS handler (functions/builder) and the
// Postgres queue's worker. Idempotent and safe to retry: a build writes only new immutable names, and
// publishes by writing the pointer last; a crash before that leaves the previous build serving.
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Deps } from '../deps.ts';
import type { RebuildMessage } from '../ports/rebuild-queue.ts';
import type { ObjectStore } from '../ports/object-store.ts';
import { contentHash, encodeVariants, type EncodedFile } from './encode-variants.ts';
import { exportSnapshot } from './export-snapshot.ts';
import {
  ENCODINGS,
  buildsPrefix,
  groupKey,
  indexKey,
  languageKey,
  manifestKey,
  pointerKey,
  type BuildIndex,
  type Encoding,
  type FileEntry,
  type Pointer,
} from './layout.ts';
import { readPointer } from './read-pointer.ts';
import { transaction } from '../db/transaction.ts';
import { systemActor } from '../actor.ts';

const BUILDER = systemActor('builder');

export type BuildResult =
  | { status: 'built'; buildId: string; builtAt: string; seq: number; files: number; ms: number }
  | { status: 'skipped'; reason: 'covered' | 'no-project' };

const CONTENT_TYPE = 'application/json; charset=utf-8';
const PUT_CONCURRENCY = 16;
// Each compression runs gzip and brotli side by side on libuv's thread pool (4 threads by default).
const ENCODE_CONCURRENCY = Math.max(2, Math.min(4, availableParallelism()));

export async function buildProjectCache(
  deps: Pick<Deps, 'sql' | 'events' | 'objects' | 'clock' | 'log'>,
  message: RebuildMessage,
): Promise<BuildResult> {
  const started = performance.now();
  const { projectId } = message;
  const [project] = await deps.sql`select 1 from projects where id = ${projectId}`;
  if (!project) return { status: 'skipped', reason: 'no-project' };

  const previous = await readPointer(deps.objects, projectId);
  const stamp = deps.clock.now().toISOString().replace(/[-:.]/g, '');
  const buildId = `${stamp}-${randomBytes(4).toString('hex')}`;

  // Encoded and uploaded one language at a time while the snapshot reads the next. Within a
  // language, files go through PUT_CONCURRENCY workers that each compress a file and upload its
  // variants (object stores are latency-bound), with at most ENCODE_CONCURRENCY compressions at a
  // time (they are CPU-bound, on libuv's thread pool): only a few files' compressed variants are
  // ever held, which bounds a large build's memory.
  let files = 0;
  const languages: BuildIndex['languages'] = {};
  const encoding = createLimiter(ENCODE_CONCURRENCY);
  const snapshot = await exportSnapshot(deps.sql, projectId, message.seq, async (language) => {
    const groups: BuildIndex['languages'][string]['groups'] = {};
    const jobs: { body: string; keyOf: (e: Encoding) => string; done: (entry: FileEntry) => void }[] = [];
    let file: FileEntry | undefined;
    jobs.push({ body: language.json, keyOf: (e) => languageKey(projectId, buildId, language.code, e), done: (entry) => (file = entry) });
    for (const [group, body] of language.groups) {
      jobs.push({ body, keyOf: (e) => groupKey(projectId, buildId, language.code, group, e), done: (entry) => (groups[group] = entry) });
    }
    language.groups.clear();
    await eachConcurrently(jobs, PUT_CONCURRENCY, async (job) => {
      const encoded = await encoding(() => encodeVariants(job.body));
      const puts: Put[] = [];
      queueFile(puts, encoded, job.keyOf);
      await putAll(deps.objects, puts);
      files += puts.length;
      job.done(encoded.entry);
    });
    languages[language.code] = { file: file!, groups };
  });
  if (!snapshot) return { status: 'skipped', reason: 'covered' };
  // The manifest is small and served as stored (identity only): it is not compressed at all.
  const manifest = Buffer.from(JSON.stringify({ project_id: projectId, languages: snapshot.manifest }), 'utf8');
  await putAll(deps.objects, [{ key: manifestKey(projectId, buildId), body: manifest, encoding: 'identity' }]);
  files += 1;

  const builtAt = deps.clock.now().toISOString();
  const index: BuildIndex = { build_id: buildId, project_id: projectId, built_at: builtAt, manifest: { etag: `"${contentHash(manifest)}"` }, languages };
  await deps.objects.put(indexKey(projectId, buildId), Buffer.from(JSON.stringify(index)), { contentType: CONTENT_TYPE, fresh: true });
  // Publishing: the one small write that makes the whole build current at once.
  const pointer: Pointer = { build_id: buildId, built_at: builtAt, seq: snapshot.seq };
  await deps.objects.put(pointerKey(projectId), Buffer.from(JSON.stringify(pointer)), { contentType: CONTENT_TYPE });

  await transaction(deps, async (tx) => {
    await tx.sql`
      insert into cache_state (project_id, built_seq, last_build_id, last_rebuilt_at)
      values (${projectId}, ${snapshot.seq}, ${buildId}, ${builtAt})
      on conflict (project_id) do update set
        built_seq = greatest(cache_state.built_seq, excluded.built_seq),
        last_build_id = excluded.last_build_id,
        last_rebuilt_at = excluded.last_rebuilt_at,
        attempts = 0, failed_at = null, last_error = null`;
    tx.record({
      type: 'cache.built',
      projectId,
      actor: BUILDER,
      entity: { type: 'cache', id: projectId },
      after: { build_id: buildId, seq: snapshot.seq, built_at: builtAt },
    });
  });

  await collectOldBuilds(deps, projectId, [buildId, previous?.build_id]);
  const ms = Math.round(performance.now() - started);
  deps.log.info('cache built', { project_id: projectId, build_id: buildId, seq: snapshot.seq, files: files + 2, ms });
  return { status: 'built', buildId, builtAt, seq: snapshot.seq, files: files + 2, ms };
}

type Put = { key: string; body: Uint8Array; encoding: Encoding };

function queueFile(puts: Put[], file: EncodedFile, keyOf: (e: Encoding) => string) {
  for (const encoding of ENCODINGS) puts.push({ key: keyOf(encoding), body: file.variants[encoding], encoding });
}

async function putAll(objects: ObjectStore, puts: Put[]) {
  await eachConcurrently(puts, PUT_CONCURRENCY, async (put) => {
    // Every file of a build is new, under the build's own id, and read only once the pointer names it.
    await objects.put(put.key, put.body, {
      contentType: CONTENT_TYPE,
      fresh: true,
      ...(put.encoding === 'identity' ? {} : { contentEncoding: put.encoding }),
    });
  });
}

/** Runs `work` on every item, at most `concurrency` at a time, in order of the items. */
async function eachConcurrently<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** A gate letting at most `limit` tasks run at once; the others wait their turn in order. */
function createLimiter(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/**
 * Keeps the new build and the one it replaced (a reader holding the old pointer for a moment still
 * finds its files); everything older, and leftovers of failed builds, goes.
 */
async function collectOldBuilds(deps: Pick<Deps, 'objects' | 'log'>, projectId: string, keep: (string | undefined)[]) {
  try {
    const prefix = buildsPrefix(projectId);
    const stale = (await deps.objects.list(prefix)).filter((key) => !keep.includes(key.slice(prefix.length).split('/')[0]));
    if (stale.length) await deps.objects.delete(stale);
  } catch (error) {
    deps.log.warn('old cache builds not collected', { project_id: projectId, error: String(error) });
  }
}
