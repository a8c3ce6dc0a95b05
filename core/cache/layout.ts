// Where a project's built cache lives in the object store. Builds are immutable and written under
// their own id; `current.json`, the pointer, is written last and names the build being served.
//
//   projects/<project>/current.json                                     pointer (small, mutable)
//   projects/<project>/builds/<build>/index.json                        what the build holds, with etags
//   projects/<project>/builds/<build>/manifest.json
//   projects/<project>/builds/<build>/languages/<code>.json[.gz|.br]
//   projects/<project>/builds/<build>/languages/<code>/groups/g<base64url(name)>.json[.gz|.br]
//
// A language with a fallback chain (the project's `fallbacks` setting) is stored in three variants:
// the default files above hold every key, missing values taken from the chain; `<code>.raw.json` and
// `<code>/raw/g….json` hold only the language's own values (`?fallback=false`); `<code>.explain.json`
// and `<code>/explain/g….json` are the default bodies plus a `sources` map (`?fallback=explain`).
import * as v from 'valibot';

export type Encoding = 'identity' | 'gzip' | 'br';
export const ENCODINGS: readonly Encoding[] = ['identity', 'gzip', 'br'];
const SUFFIX: Record<Encoding, string> = { identity: '', gzip: '.gz', br: '.br' };

export const pointerKey = (projectId: string) => `projects/${projectId}/current.json`;
export const buildsPrefix = (projectId: string) => `projects/${projectId}/builds/`;
export const buildPrefix = (projectId: string, buildId: string) => `projects/${projectId}/builds/${buildId}/`;
export const indexKey = (projectId: string, buildId: string) => `${buildPrefix(projectId, buildId)}index.json`;
export const manifestKey = (projectId: string, buildId: string) => `${buildPrefix(projectId, buildId)}manifest.json`;

// Group names may be '.', contain spaces or any letter: base64url keeps every key portable.
// Memoized (bounded): the cached group and key reads compute it on every request.
const segments = new Map<string, string>();
function groupSegment(group: string): string {
  let segment = segments.get(group);
  if (segment === undefined) {
    if (segments.size >= 10_000) segments.clear();
    segment = `g${Buffer.from(group, 'utf8').toString('base64url')}`;
    segments.set(group, segment);
  }
  return segment;
}

/** Which body of a language: with fallbacks applied (the default), its own values only, or with sources. */
export type Variant = 'default' | 'raw' | 'explain';
const VARIANT_FILE: Record<Variant, string> = { default: '', raw: '.raw', explain: '.explain' };
const VARIANT_DIR: Record<Variant, string> = { default: 'groups', raw: 'raw', explain: 'explain' };

export const languageKey = (projectId: string, buildId: string, code: string, encoding: Encoding, variant: Variant = 'default') =>
  `${buildPrefix(projectId, buildId)}languages/${code}${VARIANT_FILE[variant]}.json${SUFFIX[encoding]}`;
export const groupKey = (projectId: string, buildId: string, code: string, group: string, encoding: Encoding, variant: Variant = 'default') =>
  `${buildPrefix(projectId, buildId)}languages/${code}/${VARIANT_DIR[variant]}/${groupSegment(group)}.json${SUFFIX[encoding]}`;

/**
 * A build id: the build's start time (UTC, compact ISO 8601, so ids sort in time order) and 32
 * random bits. Checked before any object key is made of one (it names a directory).
 */
export const BUILD_ID_PATTERN = /^\d{8}T\d{9}Z-[0-9a-f]{8}$/;
/** When the build of this id started (ms since the epoch), or NaN for an id of another form. */
export function buildStartedAt(buildId: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z-/.exec(buildId);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!) : NaN;
}

/** The pointer: small, rewritten by every build, read (and revalidated) by every server. */
export const Pointer = v.object({
  build_id: v.string(),
  built_at: v.string(),
  seq: v.number(),
  /**
   * The builds still served by their URLs (this one among them) as of this pointer: the builder
   * decides what it keeps before publishing, and deletes the others only after. A named build not
   * listed here is gone or going, on every server within the pointer's TTL. Absent in pointers
   * written before the list existed (or when the builder could not list the builds): then a build
   * is readable while its index is.
   */
  kept: v.optional(v.array(v.string())),
});
export type Pointer = v.InferOutput<typeof Pointer>;

/** One file of a build in its three encodings: the strong etags let servers answer 304 from memory. */
export const FileEntry = v.object({
  etag: v.string(),
  etags: v.object({ identity: v.string(), gzip: v.string(), br: v.string() }),
  bytes: v.number(),
});
export type FileEntry = v.InferOutput<typeof FileEntry>;

/** A language's whole file and its group files, in one variant. */
export const FileSet = v.object({ file: FileEntry, groups: v.record(v.string(), FileEntry) });
export type FileSet = v.InferOutput<typeof FileSet>;

export const BuildIndex = v.object({
  build_id: v.string(),
  project_id: v.string(),
  built_at: v.string(),
  manifest: v.object({ etag: v.string() }),
  languages: v.record(
    v.string(),
    v.object({
      ...FileSet.entries,
      /** Only for a language with a fallback chain (absent in builds made before chains existed). */
      fallback: v.optional(v.object({ chain: v.array(v.string()), raw: FileSet, explain: FileSet })),
    }),
  ),
  /**
   * Every language registered at the snapshot, built or not (a language is built once it has a
   * value of its own): lets a 404 say why a language has no file. Absent in older builds.
   */
  registered: v.optional(v.array(v.string())),
});
export type BuildIndex = v.InferOutput<typeof BuildIndex>;
