// The builder: one core function behind both the SQS handler (functions/builder) and the
// Postgres queue's worker. Idempotent and safe to retry: a build writes only new immutable names, and
// publishes by writing the pointer last; a crash before that leaves the previous build serving.
import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { availableParallelism } from 'node:os';
import type { Deps } from '../deps.ts';
import type { RebuildMessage } from '../ports/rebuild-queue.ts';
import type { ObjectStore } from '../ports/object-store.ts';
import { contentHash, encodeVariants, type EncodedFile } from './encode-variants.ts';
import { exportSnapshot, type Snapshot } from './export-snapshot.ts';
import { createLanguageSpool, type SpooledBodies, type SpooledLanguage } from './language-spool.ts';
import { buildLanguagePath } from './build-urls.ts';
import {
  ENCODINGS,
  buildPrefix,
  buildsPrefix,
  groupKey,
  indexKey,
  languageKey,
  manifestKey,
  pointerKey,
  BuildIndex,
  type Encoding,
  type FileEntry,
  type FileSet,
  type Pointer,
  type Variant,
  buildStartedAt,
} from './layout.ts';
import { readPointer } from './read-pointer.ts';
import { changedPaths } from './edge-invalidation.ts';
import { MAX_KEPT_BUILDS, REPLACED_BUILD_RETENTION_MS } from './retention.ts';
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
  deps: Pick<Deps, 'sql' | 'events' | 'objects' | 'clock' | 'log' | 'edge'>,
  message: RebuildMessage,
): Promise<BuildResult> {
  const started = performance.now();
  const { projectId } = message;
  const [project] = await deps.sql`select 1 from projects where id = ${projectId}`;
  if (!project) return { status: 'skipped', reason: 'no-project' };

  const previous = await readPointer(deps.objects, projectId);
  const stamp = deps.clock.now().toISOString().replace(/[-:.]/g, '');
  const buildId = `${stamp}-${randomBytes(4).toString('hex')}`;

  // A failed build removes its own files (and only its own: never another build's, which may be
  // being written) before the error goes on: otherwise every retry on a full disk would keep another
  // partial build, holding the space the next attempt needs until a later build's collection. Not
  // once the pointer may name the build: a pointer write that failed may still have landed.
  let pointerAttempted = false;
  const build = async (): Promise<BuildResult> => {
    // The snapshot hands each language to the uploads through a spool (core/cache/language-spool.ts)
    // and reads the next at once: its transaction (on the embedded database, the one connection) never
    // waits for compression or the object store, and ends as soon as the last language is read, while
    // the uploads go on. Within a language, files go through PUT_CONCURRENCY workers that each compress
    // a file and upload its variants (object stores are latency-bound), with at most
    // ENCODE_CONCURRENCY compressions at a time (they are CPU-bound, on libuv's thread pool): only a
    // few files' compressed variants are ever held, which bounds a large build's memory.
    let files = 0;
    // Keyed by language codes and group names, which may be `__proto__`: objects without a prototype
    // store every name as an own key (on `{}`, assigning `__proto__` sets the prototype instead).
    const languages: BuildIndex['languages'] = Object.create(null);
    const encoding = createLimiter(ENCODE_CONCURRENCY);
    const uploadLanguage = async (language: SpooledLanguage) => {
      const jobs: { body: () => Promise<Uint8Array>; keyOf: (e: Encoding) => string; done: (entry: FileEntry) => void }[] = [];
      // One variant's files (the default, or for a language with a chain, also raw and explain).
      const fileSet = (bodies: SpooledBodies, variant: Variant): FileSet => {
        const set = { groups: Object.create(null) } as FileSet;
        jobs.push({ body: bodies.json, keyOf: (e) => languageKey(projectId, buildId, language.code, e, variant), done: (entry) => (set.file = entry) });
        for (const [group, body] of bodies.groups) {
          jobs.push({ body, keyOf: (e) => groupKey(projectId, buildId, language.code, group, e, variant), done: (entry) => (set.groups[group] = entry) });
        }
        return set;
      };
      const main = fileSet(language, 'default');
      const fallback = language.fallback && {
        chain: language.fallback.chain,
        raw: fileSet(language.fallback.raw, 'raw'),
        explain: fileSet(language.fallback.explain, 'explain'),
      };
      await eachConcurrently(jobs, PUT_CONCURRENCY, async (job) => {
        const body = await job.body();
        const encoded = await encoding(() => encodeVariants(body));
        const puts: Put[] = [];
        queueFile(puts, encoded, job.keyOf);
        await putAll(deps.objects, puts);
        files += puts.length;
        job.done(encoded.entry);
      });
      languages[language.code] = fallback ? { ...main, fallback } : main;
    };
    const spool = createLanguageSpool();
    let snapshot: Snapshot | null;
    try {
      const uploading = (async () => {
        try {
          for (let language; (language = await spool.next()); ) {
            await uploadLanguage(language);
            spool.release(language);
          }
        } catch (error) {
          spool.fail(error);
          throw error;
        }
      })();
      // Handled here and awaited below: a failed upload while the snapshot still reads is not an
      // unhandled rejection; the snapshot stops at its next hand-over, with the upload's error.
      uploading.catch(() => {});
      try {
        snapshot = await exportSnapshot(deps.sql, projectId, message.seq, (language) => spool.push(language));
      } catch (error) {
        spool.fail(error);
        await uploading.catch(() => {});
        throw error;
      }
      spool.end();
      // Never leave an upload running after the build ends, failed or not.
      await uploading;
    } finally {
      await spool.close();
    }
    if (!snapshot) return { status: 'skipped', reason: 'covered' };
    // The manifest is small and served as stored (identity only): it is not compressed at all. Beside
    // the spec's fields it names the build and, per language, the versioned URL of its current file
    // and that file's ETag: a client revalidates the manifest alone and fetches only what changed.
    const builtAt = deps.clock.now().toISOString();
    const manifest = Buffer.from(
      JSON.stringify({
        project_id: projectId,
        build_id: buildId,
        built_at: builtAt,
        languages: snapshot.manifest.map((entry) => ({
          ...entry,
          url: buildLanguagePath(buildId, entry.code),
          etag: languages[entry.code]!.file.etag,
        })),
      }),
      'utf8',
    );
    await putAll(deps.objects, [{ key: manifestKey(projectId, buildId), body: manifest, encoding: 'identity' }]);
    files += 1;

    const index: BuildIndex = {
      build_id: buildId,
      project_id: projectId,
      built_at: builtAt,
      manifest: { etag: `"${contentHash(manifest)}"` },
      languages,
      registered: snapshot.registered,
      ...(previous && wholeSecond(previous.built_at) >= wholeSecond(builtAt) ? { shares_second: true as const } : {}),
    };
    await deps.objects.put(indexKey(projectId, buildId), Buffer.from(JSON.stringify(index)), { contentType: CONTENT_TYPE, fresh: true });
    // Publishing: the one small write that makes the whole build current at once, under the
    // project's cache_state row lock and checked against it. Builds of one project can overlap across
    // replicas (a builder whose lease lapsed while it uploaded, and the replica that took the project
    // over): the snapshot's lock covers only the snapshot. An older build that finds a newer one
    // recorded must not replace it, or the cached reads would go back in time while the status said
    // nothing was pending. Build ids begin with their start time: of two builds covering the same
    // requests, the later started read the later snapshot. (The database, not the pointer, is asked:
    // after a restore from a backup the store may hold a pointer from a history the database no
    // longer has.)
    // Which builds stay is decided before publishing and named in the pointer; they are deleted only
    // after it: a server reading a build the pointer no longer keeps answers 404 for every one of its
    // files at once, never a 500 for a file already deleted (core/cache/read-cached.ts).
    const collection = await planCollection(deps, projectId, buildId, previous?.build_id);
    const pointer: Pointer = { build_id: buildId, built_at: builtAt, seq: snapshot.seq, ...(collection ? { kept: collection.kept } : {}) };
    const published = await transaction(deps, async (tx) => {
      const [recorded] = await tx.sql<{ built_seq: number; last_build_id: string | null }[]>`
        select built_seq::int, last_build_id from cache_state where project_id = ${projectId} for update`;
      if (recorded && (recorded.built_seq > snapshot.seq || (recorded.built_seq === snapshot.seq && (recorded.last_build_id ?? '') > buildId))) {
        return false;
      }
      pointerAttempted = true;
      await deps.objects.put(pointerKey(projectId), Buffer.from(JSON.stringify(pointer)), { contentType: CONTENT_TYPE });
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
      return true;
    });
    if (!published) {
      deps.log.info('cache build superseded', { project_id: projectId, build_id: buildId, seq: snapshot.seq });
      return { status: 'skipped', reason: 'covered' };
    }

    await invalidateEdge(deps, projectId, previous?.build_id, index);
    if (collection) await deleteStale(deps, projectId, collection.stale);
    const ms = Math.round(performance.now() - started);
    deps.log.info('cache built', { project_id: projectId, build_id: buildId, seq: snapshot.seq, files: files + 2, ms });
    return { status: 'built', buildId, builtAt, seq: snapshot.seq, files: files + 2, ms };
  };
  try {
    return await build();
  } catch (error) {
    if (!pointerAttempted) await removeOwnFiles(deps, projectId, buildId);
    throw error;
  }
}

/** Best effort: the build has failed already, and a later build's collection takes what is left. */
async function removeOwnFiles(deps: Pick<Deps, 'objects' | 'log'>, projectId: string, buildId: string) {
  try {
    const keys = await deps.objects.list(buildPrefix(projectId, buildId));
    if (keys.length) await deps.objects.delete(keys);
  } catch (error) {
    deps.log.warn('files of a failed build not removed', { project_id: projectId, build_id: buildId, error: String(error) });
  }
}

/** The whole second of an ISO time: what an HTTP date (Last-Modified) keeps of it. */
const wholeSecond = (iso: string) => Math.floor(Date.parse(iso) / 1000);

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

/**
 * Runs `work` on every item, at most `concurrency` at a time, in order of the items. After a failure
 * no further item starts, and the first error is thrown once the running ones have ended: nothing
 * of a failed build is still writing when it removes its files.
 */
async function eachConcurrently<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      try {
        await work(items[next++]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (failure) throw failure.error;
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
 * Tells the edge which mutable paths this build changed (core/cache/edge-invalidation.ts). A failure
 * never fails the build, which is published already: the edge then serves the old answers until
 * their max-age (plus stale-while-revalidate) runs out, as it would with no invalidation at all.
 */
async function invalidateEdge(deps: Pick<Deps, 'objects' | 'edge' | 'log'>, projectId: string, previousId: string | undefined, next: BuildIndex) {
  let paths: string[] = [];
  try {
    let previous: BuildIndex | null = null;
    if (previousId) {
      const found = await deps.objects.get(indexKey(projectId, previousId));
      if (found.kind === 'found') previous = v.parse(BuildIndex, JSON.parse(Buffer.from(found.object.body).toString('utf8')));
    }
    paths = changedPaths(previous, next);
    await deps.edge.invalidate(paths, next.build_id);
  } catch (error) {
    deps.log.warn('edge cache not invalidated', { project_id: projectId, build_id: next.build_id, paths: paths.length, error: String(error) });
  }
}

export { REPLACED_BUILD_RETENTION_MS, MAX_KEPT_BUILDS } from './retention.ts';

/**
 * Keeps the new build, the one it replaced, and builds replaced less than REPLACED_BUILD_RETENTION_MS
 * ago (a build counts as replaced when the next complete build started), up to MAX_KEPT_BUILDS.
 * Everything older goes, and leftovers of failed builds (no index) once they are as old. Null when
 * the builds could not be listed: nothing is collected then, and the pointer lists no builds.
 */
async function planCollection(
  deps: Pick<Deps, 'objects' | 'log' | 'clock'>,
  projectId: string,
  current: string,
  previous: string | undefined,
): Promise<{ kept: string[]; stale: string[] } | null> {
  try {
    const prefix = buildsPrefix(projectId);
    const keys = await deps.objects.list(prefix);
    const buildOf = (key: string) => key.slice(prefix.length).split('/')[0]!;
    // The new build's index is written already, so it is among the complete builds.
    const complete = [...new Set(keys.filter((key) => key.endsWith('/index.json')).map(buildOf))].sort();
    const now = deps.clock.now().getTime();
    const keep = new Set([current, ...(previous ? [previous] : [])]);
    for (let i = complete.length - 2; i >= 0 && keep.size < MAX_KEPT_BUILDS; i--) {
      const replacedAt = buildStartedAt(complete[i + 1]!);
      if (now - replacedAt < REPLACED_BUILD_RETENTION_MS) keep.add(complete[i]!);
    }
    const completeSet = new Set(complete);
    const stale = keys.filter((key) => {
      const build = buildOf(key);
      if (keep.has(build)) return false;
      // A build that started after this one (ids sort by start time) is another replica's, being
      // written or about to publish (this one publishes first only when that one has not yet):
      // deleting its files would leave its pointer naming a build that is gone. Its own
      // collection, or a later build's, judges it.
      if (build > current) return false;
      // An unfinished build: failed, or still being written by a build that overlaps this one.
      if (!completeSet.has(build)) return !(now - buildStartedAt(build) < REPLACED_BUILD_RETENTION_MS);
      return true;
    });
    return { kept: [...keep].sort(), stale };
  } catch (error) {
    deps.log.warn('old cache builds not collected', { project_id: projectId, error: String(error) });
    return null;
  }
}

async function deleteStale(deps: Pick<Deps, 'objects' | 'log'>, projectId: string, stale: string[]) {
  try {
    if (stale.length) await deps.objects.delete(stale);
  } catch (error) {
    deps.log.warn('old cache builds not collected', { project_id: projectId, error: String(error) });
  }
}
