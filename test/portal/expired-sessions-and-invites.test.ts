// Every sign-in adds a user_sessions row; a session that expired (SESSION_DAYS) is refused by
// findSession, but its row was never deleted by any path (only sign-out / sign-out everywhere
// deleted rows): over a year of daily sign-ins by a team the table only grew. The user's expired
// sessions now go at their next sign-in; an account's used and expired invitations at its next one.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { hashPassword } from '../../core/users/password.ts';
import { SESSION_DAYS } from '../../core/users/sessions.ts';
import { createInvite, INVITE_DAYS } from '../../core/users/invites.ts';
import { PortalClient } from './support/portal-client.ts';

const t = useTestApp();
const PASSWORD = 'correct horse battery';

describe('expired portal sessions', () => {
  it('are purged once expired (a later sign-in leaves no expired session rows behind)', async () => {
    const p = await t.newProject('team');
    const email = `lifecycle-${Date.now()}@example.com`;
    const [user] = await t.runtime.deps.sql<{ id: string }[]>`
      insert into users (email, password_hash) values (${email}, ${await hashPassword(PASSWORD)}) returning id`;
    await t.runtime.deps.sql`insert into memberships (user_id, account_id, role) values (${user!.id}, ${p.accountId}, 'owner')`;

    const deps = t.runtime.deps as { clock: { now(): Date } };
    const start = Date.now();
    const signInAt = async (ms: number) => {
      deps.clock = { now: () => new Date(ms) };
      const client = new PortalClient(t.app);
      await client.get('/portal/sign-in');
      const res = await client.post('/portal/sign-in', { email, password: PASSWORD });
      expect(res.status).toBe(303);
    };
    // Three sign-ins (three browsers, or three days) that are never signed out, as most are not.
    for (let i = 0; i < 3; i++) await signInAt(start + i * 1000);
    // A month later, the user signs in again.
    const later = start + (SESSION_DAYS + 16) * 86_400_000;
    await signInAt(later);

    const [rows] = await t.runtime.deps.sql<{ all: number; expired: number }[]>`
      select count(*)::int as all, count(*) filter (where expires_at <= ${new Date(later)})::int as expired
      from user_sessions where user_id = ${user!.id}`;
    expect(rows!.all).toBe(1 + rows!.expired);
    expect(rows!.expired).toBe(0);
  });
});

describe('used and expired invitations', () => {
  it('go when the account makes its next invitation; pending ones stay', async () => {
    const p = await t.newProject('team');
    const [owner] = await t.runtime.deps.sql<{ id: string }[]>`
      insert into users (email, password_hash) values (${`owner-${Date.now()}@example.com`}, 'x') returning id`;
    await t.runtime.deps.sql`insert into memberships (user_id, account_id, role) values (${owner!.id}, ${p.accountId}, 'owner')`;
    const start = Date.now();
    const at = (ms: number) => ({ ...t.runtime.deps, clock: { now: () => new Date(ms) } });
    const invite = (ms: number) => createInvite(at(ms), { userId: owner!.id, accountId: p.accountId, role: 'translator' });
    const used = await invite(start);
    await t.runtime.deps.sql`update invites set accepted_at = now() where id = ${used.id}`;
    const expired = await invite(start);
    const pending = await invite(start + (INVITE_DAYS + 1) * 86_400_000 - 60_000);
    const next = await invite(start + (INVITE_DAYS + 1) * 86_400_000);
    const left = await t.runtime.deps.sql<{ id: string }[]>`select id from invites where account_id = ${p.accountId}`;
    expect(left.map((r) => r.id).sort()).toEqual([pending.id, next.id].sort());
    expect(left.map((r) => r.id)).not.toContain(expired.id);
  });
});
