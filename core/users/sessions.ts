// Sessions: a random token in the cookie, only its sha256 in Postgres, with its own CSRF token.
// Sessions expire after SESSION_DAYS (and are deleted at the user's next sign-in); signing out
// everywhere deletes every session of the user.
import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../deps.ts';
import type { SessionUser } from './schemas.ts';

export const SESSION_DAYS = 14;
const DAY_MS = 86_400_000;

export const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');
export const randomToken = () => randomBytes(32).toString('base64url');

export type NewSession = { token: string; csrf: string; expiresAt: Date };

export async function createSession(deps: Pick<Deps, 'sql' | 'clock'>, userId: string): Promise<NewSession> {
  const token = randomToken();
  const csrf = randomToken();
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_DAYS * DAY_MS);
  // The user's expired sessions go as a new one comes: nothing else deletes a session that was never
  // signed out of (most are not), and every sign-in added a row for good.
  await deps.sql`
    with expired as (delete from user_sessions where user_id = ${userId} and expires_at <= ${now})
    insert into user_sessions (id_hash, user_id, csrf_token, expires_at)
    values (${sha256Hex(token)}, ${userId}, ${csrf}, ${expiresAt})`;
  return { token, csrf, expiresAt };
}

export type ActiveSession = { user: SessionUser; csrf: string };

/** The session a cookie's token names, if it exists and has not expired. */
export async function findSession(deps: Pick<Deps, 'sql' | 'clock'>, token: string): Promise<ActiveSession | null> {
  // A cookie value that could never be ours is not looked up.
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [row] = await deps.sql<{ id: string; email: string; csrf_token: string }[]>`
    select u.id, u.email, s.csrf_token from user_sessions s join users u on u.id = s.user_id
    where s.id_hash = ${sha256Hex(token)} and s.expires_at > ${deps.clock.now()}`;
  return row ? { user: { id: row.id, email: row.email }, csrf: row.csrf_token } : null;
}

export async function endSession(deps: Pick<Deps, 'sql'>, token: string): Promise<void> {
  await deps.sql`delete from user_sessions where id_hash = ${sha256Hex(token)}`;
}

/** Signs the user out on every device (a lost laptop, a changed password). */
export async function endAllSessions(deps: Pick<Deps, 'sql'>, userId: string): Promise<number> {
  const rows = await deps.sql`delete from user_sessions where user_id = ${userId} returning 1`;
  return rows.length;
}
