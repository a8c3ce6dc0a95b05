// Where a project's built cache lives in the object store. Builds are immutable and written under
// their own id; `current.json`, the pointer, is written last and names the build being served.
//
//   projects/<project>/current.json                                     pointer (small, mutable)
//   projects/<project>/builds/<build>/index.json                        what the build holds, with etags
//   projects/<project>/builds/<build>/manifest.json
//   projects/<project>/builds/<build>/languages/<code>.json[.gz|.br]
//   projects/<project>/builds/<build>/languages/<code>/groups/g<base64url(name)>.json[.gz|.br]
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

export const languageKey = (projectId: string, buildId: string, code: string, encoding: Encoding) =>
  `${buildPrefix(projectId, buildId)}languages/${code}.json${SUFFIX[encoding]}`;
export const groupKey = (projectId: string, buildId: string, code: string, group: string, encoding: Encoding) =>
  `${buildPrefix(projectId, buildId)}languages/${code}/groups/${groupSegment(group)}.json${SUFFIX[encoding]}`;

/** The pointer: small, rewritten by every build, read (and revalidated) by every server. */
export const Pointer = v.object({
  build_id: v.string(),
  built_at: v.string(),
  seq: v.number(),
});
export type Pointer = v.InferOutput<typeof Pointer>;

/** One file of a build in its three encodings: the strong etags let servers answer 304 from memory. */
export const FileEntry = v.object({
  etag: v.string(),
  etags: v.object({ identity: v.string(), gzip: v.string(), br: v.string() }),
  bytes: v.number(),
});
export type FileEntry = v.InferOutput<typeof FileEntry>;

export const BuildIndex = v.object({
  build_id: v.string(),
  project_id: v.string(),
  built_at: v.string(),
  manifest: v.object({ etag: v.string() }),
  languages: v.record(
    v.string(),
    v.object({ file: FileEntry, groups: v.record(v.string(), FileEntry) }),
  ),
});
export type BuildIndex = v.InferOutput<typeof BuildIndex>;
