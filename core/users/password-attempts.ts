// Failed password checks, counted per email and per client address in the shared counters (Redis,
// Upstash or memory), in fixed windows. Every form that checks a user's password (sign-in, and an
// invitation accepted by an address that already has a user) goes through here with the same
// counter keys: a lockout earned on one form holds on the other, so no second door lets guessing
// go on. Past the limit, attempts are refused before the password is even checked.
import type { Deps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { AuthThrottleData } from '../auth/failed-auth-limiter.ts';

export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
/** Failed attempts allowed per email address in a window. */
export const FAILURES_PER_EMAIL = 10;
/** Failed attempts allowed per client address in a window (an office shares one address). */
export const FAILURES_PER_ADDRESS = 50;

/** One answer for an unknown address and a wrong password: no form reveals who has an account. */
export const wrongCredentials = () => new AppError('unauthorized', 'Wrong email or password');

const windowEnd = (nowMs: number) => {
  const w = SIGN_IN_WINDOW_SECONDS * 1000;
  return Math.floor(nowMs / w) * w + w;
};

function throttled(endMs: number, nowMs: number): AppError<AuthThrottleData> {
  const retryAfterSeconds = Math.max(1, Math.ceil((endMs - nowMs) / 1000));
  return new AppError<AuthThrottleData>('rate_limited', `Too many failed sign-in attempts; try again in ${Math.ceil(retryAfterSeconds / 60)} minutes`, {
    data: { retryAfterSeconds },
  });
}

export type PasswordAttempt = {
  /** Counts this attempt as a failure (against the email and the address); call it before answering 401. */
  failed(): Promise<void>;
};

/**
 * Opens a password check for `email` from `address` (undefined when unknown): throws rate_limited
 * (429 with Retry-After) when either has used up its failures in this window, whatever the
 * password, else answers the handle that counts a failure.
 */
export async function beginPasswordAttempt(deps: Pick<Deps, 'counters' | 'clock'>, email: string, address: string | undefined): Promise<PasswordAttempt> {
  const now = deps.clock.now().getTime();
  const end = windowEnd(now);
  const emailKey = `signin:email:${email}:${end}`;
  const addressKey = address ? `signin:addr:${address}:${end}` : undefined;
  const [byEmail, byAddress] = await Promise.all([deps.counters.get(emailKey), addressKey ? deps.counters.get(addressKey) : 0]);
  if (byEmail >= FAILURES_PER_EMAIL || byAddress >= FAILURES_PER_ADDRESS) throw throttled(end, now);
  const expire = Math.ceil(end / 1000);
  return {
    async failed() {
      await Promise.all([deps.counters.increment(emailKey, expire), addressKey ? deps.counters.increment(addressKey, expire) : undefined]);
    },
  };
}
