// Which mutable cached paths a build changed, from the two builds' indexes (their ETags): what the
// builder asks the edge (CloudFront) to drop after publishing. The versioned build URLs never need
// it: a new build has new URLs.
//
// The manifest names the build, so it changes with every build. A language changed when any of its
// files did (whole file, a group's file, a group added or gone, in any variant: default, raw,
// explain) or when it appeared or disappeared: its whole path, every query string of it, and
// everything under it (group and key paths) go, as one path: `/de*`.
//
// CloudFront keys /v1/cached/* but the manifest on the `fallback` query string (stacks/api.ts,
// EDGE_CACHED_QUERY_STRINGS: the manifest takes none, so its exact path is all of it), and an invalidation
// path names a URL with its query string, or ends in `*` (CloudFront Developer Guide, "Invalidating
// files": "you must include the query strings when invalidating files ... or use the * wildcard").
// `/de` and `/de/*` left every `/de?fallback=…` copy in place. `/de?*` would name them exactly, but
// the EdgeCache port takes no query strings; `/de*` also drops the edge's copies of `/de-AT…` (and
// of any code beginning `de`), which costs those one origin request each, never a wrong answer, and
// it is one path per language where there were two.
import type { BuildIndex, FileSet } from './layout.ts';
import { MAX_INVALIDATION_PATHS } from '../ports/edge-cache.ts';

export const MANIFEST_PATH = '/v1/cached/manifest';
export const cachedLanguagePath = (code: string) => `/v1/cached/translations/${encodeURIComponent(code)}`;

type LanguageEntry = BuildIndex['languages'][string];

function sameFiles(a: FileSet, b: FileSet): boolean {
  if (a.file.etag !== b.file.etag) return false;
  const groups = Object.keys(a.groups);
  if (groups.length !== Object.keys(b.groups).length) return false;
  return groups.every((g) => Object.hasOwn(b.groups, g) && b.groups[g]!.etag === a.groups[g]!.etag);
}

function sameLanguage(a: LanguageEntry, b: LanguageEntry): boolean {
  if (!sameFiles(a, b)) return false;
  if (!a.fallback || !b.fallback) return !a.fallback && !b.fallback;
  return sameFiles(a.fallback.raw, b.fallback.raw) && sameFiles(a.fallback.explain, b.fallback.explain);
}

/** Everything cached: when a build changed more languages than one invalidation can name. */
export const ALL_CACHED_PATHS = '/v1/cached/*';

/** The paths to invalidate after `next` replaced `previous` (null: the first build, everything). */
export function changedPaths(previous: BuildIndex | null, next: BuildIndex, maxPaths = MAX_INVALIDATION_PATHS): string[] {
  const paths = [MANIFEST_PATH];
  const codes = new Set([...Object.keys(previous?.languages ?? {}), ...Object.keys(next.languages)]);
  for (const code of [...codes].sort()) {
    const before = previous && Object.hasOwn(previous.languages, code) ? previous.languages[code] : undefined;
    const after = Object.hasOwn(next.languages, code) ? next.languages[code] : undefined;
    if (before && after && sameLanguage(before, after)) continue;
    paths.push(`${cachedLanguagePath(code)}*`);
  }
  return paths.length > maxPaths ? [ALL_CACHED_PATHS] : paths;
}
