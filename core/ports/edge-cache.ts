// A shared cache in front of the API that keeps the cached endpoints' answers (CloudFront on AWS).
// After a build publishes, the builder tells it which mutable paths changed, so that the edge stops
// serving the old answers at once instead of after their max-age. Self-hosted and embedded there is
// no edge of ours: the no-op adapter. Build URLs are never invalidated: a build id names one content.

export interface EdgeCache {
  /**
   * Drops the edge's copies of these paths, every variant of each (every X-API-Key, encoding and
   * query string). A path is absolute and may end in `*` (everything under it). `reference` makes a
   * retried call with the same paths a no-op (CloudFront's CallerReference); a build id serves.
   */
  invalidate(paths: readonly string[], reference: string): Promise<void>;
}

/** The most paths one call takes (CloudFront's limit per invalidation batch). */
export const MAX_INVALIDATION_PATHS = 3000;

/** Refuses what no edge accepts, so every adapter fails the same way on a bad batch. */
export function checkInvalidationPaths(paths: readonly string[]): void {
  if (paths.length === 0) throw new Error('an invalidation needs at least one path');
  if (paths.length > MAX_INVALIDATION_PATHS) throw new Error(`at most ${MAX_INVALIDATION_PATHS} paths per invalidation`);
  for (const path of paths) {
    if (!path.startsWith('/')) throw new Error(`invalidation path must start with '/': ${path}`);
    if (path.slice(0, -1).includes('*')) throw new Error(`'*' may only end an invalidation path: ${path}`);
    if (/[\s?#]/.test(path)) throw new Error(`invalidation path must be URL-encoded, without query or fragment: ${path}`);
  }
}
