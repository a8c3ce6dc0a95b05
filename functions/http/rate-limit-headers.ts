// How a caller's daily standing is told in headers: X-RateLimit-* (the de facto convention) and
// RateLimit / RateLimit-Policy as structured fields per draft-ietf-httpapi-ratelimit-headers-11.
// Resets are delta-seconds everywhere, like Retry-After.
import { DAY_SECONDS, type CallTally } from '../../core/usage/count-call.ts';

/** The policy's name in the IETF RateLimit and RateLimit-Policy fields. */
const POLICY = 'daily';

/** Without a limit (the unlimited plan) there is no policy to state: no headers. */
export function rateLimitHeaders(tally: CallTally): Record<string, string> {
  if (tally.limit === null) return {};
  return {
    'X-RateLimit-Limit': String(tally.limit),
    'X-RateLimit-Remaining': String(tally.remaining),
    'X-RateLimit-Reset': String(tally.resetSeconds),
    'RateLimit-Policy': `"${POLICY}";q=${tally.limit};w=${DAY_SECONDS}`,
    RateLimit: `"${POLICY}";r=${tally.remaining};t=${tally.resetSeconds}`,
  };
}
