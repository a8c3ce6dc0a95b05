// No edge of ours in front of the API (self-hosted, embedded): nothing to invalidate. Clients and any
// proxy the operator runs keep answers at most max-age (plus stale-while-revalidate), as the
// Cache-Control of each answer says.
import { checkInvalidationPaths, type EdgeCache } from '../ports/edge-cache.ts';

export function createNoEdgeCache(): EdgeCache {
  return {
    async invalidate(paths) {
      // Still checked, so that a bad batch fails in embedded tests exactly as it would on CloudFront.
      checkInvalidationPaths(paths);
    },
  };
}
