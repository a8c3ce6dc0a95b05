// Email and password sign-in, with failed attempts counted per email and per address in the shared
// counters (Redis, Upstash or memory): past the limit, attempts are refused before the password is
// even checked, so guessing is slow whichever account or address it comes from.
import type { Deps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { AuthThrottleData } from '../auth/failed-auth-limiter.ts';
import { useCase } from '../use-case.ts';
import { decoyHash, verifyPassword } from './password.ts';
import { SignInCommand, type SessionUser } from './schemas.ts';

export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
/** Failed attempts allowed per email address in a window. */
export const FAILURES_PER_EMAIL = 10;
/** Failed attempts allowed per client address in a window (an office shares one address). */
export const FAILURES_PER_ADDRESS = 50;

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

export const signIn = useCase(SignInCommand, async (deps: Pick<Deps, 'sql' | 'counters' | 'clock'>, input): Promise<SessionUser> => {
  const now = deps.clock.now().getTime();
  const end = windowEnd(now);
  const emailKey = `signin:email:${input.email}:${end}`;
  const addressKey = input.address ? `signin:addr:${input.address}:${end}` : undefined;
  const [byEmail, byAddress] = await Promise.all([deps.counters.get(emailKey), addressKey ? deps.counters.get(addressKey) : 0]);
  if (byEmail >= FAILURES_PER_EMAIL || byAddress >= FAILURES_PER_ADDRESS) throw throttled(end, now);

  const [user] = await deps.sql<{ id: string; email: string; password_hash: string }[]>`
    select id, email, password_hash from users where email = ${input.email}`;
  const ok = await verifyPassword(input.password, user?.password_hash ?? (await decoyHash()));
  if (user && ok) return { id: user.id, email: user.email };

  const expire = Math.ceil(end / 1000);
  await Promise.all([deps.counters.increment(emailKey, expire), addressKey ? deps.counters.increment(addressKey, expire) : undefined]);
  // One answer for an unknown address and a wrong password: the form does not reveal who has an account.
  throw new AppError('unauthorized', 'Wrong email or password');
});
