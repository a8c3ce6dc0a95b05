// How long replaced builds stay readable by their URLs: the builder collects by these, and the
// cached reads name them in their 404s (without taking the builder into the read path's bundle).

/**
 * How long a replaced build stays readable: a client (or an edge) holding a manifest that names it
 * still gets its files. A manifest is fresh for 60 s and served stale for 300 s more while it is
 * revalidated (functions/cached/routes.ts), so an hour leaves ample room; the build that was current
 * just before this one is always kept, however old.
 */
export const REPLACED_BUILD_RETENTION_MS = 60 * 60 * 1000;
/** Storage bound for projects that build often: at most this many builds are kept in all. */
export const MAX_KEPT_BUILDS = 10;
