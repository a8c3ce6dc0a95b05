// Where a project's built cache lives in the object store. Builds are immutable and written under
// their own id; `current.json`, the pointer, is written last and names the build being served.
//
//   projects/<project>/current.json                                     pointer (small, mutable)
//   projects/<project>/builds/<build>/index.json                        what the build holds, with etags
//   projects/<project>/builds/<build>/manifest.json
//   projects/<project>/builds/<build>/languages/<code>.json[.gz|.br]
//   projects/<project>/builds/<build>/languages/<code>/groups/g<base64url(name)>.json[.gz|.br] (groupSegment)
//
// A language with a fallback chain (the project's `fallbacks` setting) is stored in three variants:
// the default files above hold every key, missing values taken from the chain; `<code>.raw.json` and
// `<code>/raw/g….json` hold only the language's own values (`?fallback=false`); `<code>.explain.json`
// and `<code>/explain/g….json` are the default bodies plus a `sources` map (`?fallback=explain`).
import { createHash } from 'node:crypto';
import * as v from 'valibot';

export type Encoding = 'identity' | 'gzip' | 'br';
export const ENCODINGS: readonly Encoding[] = ['identity', 'gzip', 'br'];
const SUFFIX: Record<Encoding, string> = { identity: '', gzip: '.gz', br: '.br' };

export const pointerKey = (projectId: string) => `projects/${projectId}/current.json`;
export const buildsPrefix = (projectId: string) => `projects/${projectId}/builds/`;
export const buildPrefix = (projectId: string, buildId: string) => `projects/${projectId}/builds/${buildId}/`;
export const indexKey = (projectId: string, buildId: string) => `${buildPrefix(projectId, buildId)}index.json`;
export const manifestKey = (projectId: string, buildId: string) => `${buildPrefix(projectId, buildId)}manifest.json`;

/**
 * A group file's name. A group name may be '.', contain spaces or any letter: `g` + base64url of its
 * UTF-8 keeps every key portable. But a name may be 200 characters of up to 4 bytes, and from 185
 * bytes that passes the 255-byte file name of most filesystems (every build of such a project
 * failed): a longer name's file is `h` + base64url of its SHA-256 instead. Every name that could be
 * built before keeps its file name, so builds already written, and a process still running older
 * code during a rolling deploy, read the same files. Nothing decodes a name from a file name:
 * readers find a group through the index.
 */
const LONGEST_SPELLED_OUT = 184;

// Memoized (bounded): the cached group and key reads compute it on every request.
const segments = new Map<string, string>();
function groupSegment(group: string): string {
  let segment = segments.get(group);
  if (segment === undefined) {
    if (segments.size >= 10_000) segments.clear();
    const utf8 = Buffer.from(group, 'utf8');
    segment = utf8.length <= LONGEST_SPELLED_OUT ? `g${utf8.toString('base64url')}` : `h${createHash('sha256').update(utf8).digest('base64url')}`;
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

/**
 * A record keyed by names users choose (group names, language codes), kept whole. valibot's
 * `v.record` silently skips the keys `__proto__`, `prototype` and `constructor` (its guard against
 * prototype pollution), and those are valid group names: an index parsed with it lost those groups,
 * whose files were then a 404. The entries are checked as `v.record` would, into an object without
 * a prototype, so that no key is special and none can reach Object.prototype.
 */
function byName<T extends v.GenericSchema>(entry: T) {
  return v.pipe(
    v.custom<Record<string, unknown>>((input) => typeof input === 'object' && input !== null && !Array.isArray(input), 'must be an object'),
    v.transform((input) => {
      const out = Object.create(null) as Record<string, v.InferOutput<T>>;
      for (const [name, value] of Object.entries(input)) out[name] = v.parse(entry, value);
      return out;
    }),
  );
}

/** A language's whole file and its group files, in one variant. */
export const FileSet = v.object({ file: FileEntry, groups: byName(FileEntry) });
export type FileSet = v.InferOutput<typeof FileSet>;

export const BuildIndex = v.object({
  build_id: v.string(),
  project_id: v.string(),
  built_at: v.string(),
  manifest: v.object({ etag: v.string() }),
  languages: byName(
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
  /**
   * True when this build was published within the same whole second as the build before it. HTTP
   * dates count whole seconds, so both send one Last-Modified: a client holding the earlier build
   * and revalidating by date alone must not be told this one is unchanged (read-cached.ts). Absent
   * otherwise, and in builds made before it existed.
   */
  shares_second: v.optional(v.literal(true)),
});
export type BuildIndex = v.InferOutput<typeof BuildIndex>;
