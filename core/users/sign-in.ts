// Email and password sign-in, with failed attempts counted per email and per address in the shared
// counters (password-attempts.ts, shared with invitations): past the limit, attempts are refused
// before the password is even checked, so guessing is slow whichever account or address it comes from.
import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { decoyHash, verifyPassword } from './password.ts';
import { beginPasswordAttempt, wrongCredentials } from './password-attempts.ts';
import { SignInCommand, type SessionUser } from './schemas.ts';

export { FAILURES_PER_ADDRESS, FAILURES_PER_EMAIL, SIGN_IN_WINDOW_SECONDS } from './password-attempts.ts';

export const signIn = useCase(SignInCommand, async (deps: Pick<Deps, 'sql' | 'counters' | 'clock'>, input): Promise<SessionUser> => {
  const attempt = await beginPasswordAttempt(deps, input.email, input.address);
  const [user] = await deps.sql<{ id: string; email: string; password_hash: string }[]>`
    select id, email, password_hash from users where email = ${input.email}`;
  const ok = await verifyPassword(input.password, user?.password_hash ?? (await decoyHash()));
  if (user && ok) return { id: user.id, email: user.email };
  await attempt.failed();
  throw wrongCredentials();
});
