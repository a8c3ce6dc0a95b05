// The admin token's check, shared by the admin API (Authorization: Bearer, functions/http/admin-auth.ts)
// and the portal's first-owner setup form (core/users/setup.ts). Failures are counted per client
// address by a failed-auth limiter of their own (deps.authFailures: the same kind and limit,
// AUTH_FAILURES_PER_MINUTE, that API keys are throttled with, so a flood of bad API keys cannot lock
// the operator out, nor the other way round): past the limit the address is refused
// (429 with Retry-After) before the token is compared, the right token included, so a refusal tells a
// guesser nothing and guessing costs a minute per AUTH_FAILURES_PER_MINUTE tries.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { AppError, type AuthChallenge } from '../errors.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

const ADMIN_CHALLENGE: AuthChallenge = { challenge: 'Bearer realm="tms admin"' };

export const invalidAdminToken = () => new AppError('unauthorized', 'Invalid admin token', { data: ADMIN_CHALLENGE });

/**
 * Throws rate_limited when `address` has used up its failed authentications for this minute, else
 * unauthorized (counted) unless `given` is the admin token, compared in constant time. `given`
 * undefined (no credential at all) is a failure too, as a missing API key is. No token configured
 * (a Lambda not linked to AdminToken) matches nothing.
 */
export function checkAdminToken(deps: Pick<Deps, 'adminToken' | 'authFailures'>, given: string | undefined, address: string | undefined): void {
  deps.authFailures.check(address);
  const expected = deps.adminToken;
  if (given === undefined || !expected || !timingSafeEqual(digest(given), digest(expected))) {
    deps.authFailures.fail(address);
    throw invalidAdminToken();
  }
}
