// Response headers a browser script may read (not CORS-safelisted otherwise). One list for the
// self-hosted server (create-api.ts) and API Gateway (stacks/api.ts): no imports, so the stacks can
// use it too.
export const EXPOSED_HEADERS = [
  'ETag',
  'Retry-After',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Idempotent-Replayed',
];
