// A portal user of an account with a role, signed in: a session made directly (the sign-in form has
// its own tests), and a client carrying its cookie and CSRF token.
import type { TestApp } from '../../support/test-app.ts';
import { hashPassword } from '../../../core/users/password.ts';
import { createSession } from '../../../core/users/sessions.ts';
import { PortalClient } from './portal-client.ts';

let seq = 0;

/** languages: a translator's or reviewer's languages (all when absent). */
export async function signedInMember(t: TestApp, accountId: string, role: string, options: { emailPrefix?: string; languages?: string[] } = {}): Promise<PortalClient> {
  const emailPrefix = options.emailPrefix ?? role;
  const [user] = await t.runtime.deps.sql<{ id: string }[]>`
    insert into users (email, password_hash) values (${`${emailPrefix}-${seq++}-${Date.now()}@example.com`}, ${await hashPassword('not used here')}) returning id`;
  await t.runtime.deps.sql`insert into memberships (user_id, account_id, role, languages) values (${user!.id}, ${accountId}, ${role}, ${options.languages ?? null})`;
  const session = await createSession(t.runtime.deps, user!.id);
  const client = new PortalClient(t.app);
  client.cookies.set('tms_session', session.token);
  client.csrf = session.csrf;
  return client;
}
