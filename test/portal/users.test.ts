// core/users on a real database: first-owner setup (token checked, once only), sign-in with its
// per-email and per-address attempt limits, sessions stored hashed and ended everywhere, and
// invitations that are one-time, expiring and role-checked.
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../core/deps.ts';
import { needsSetup, setupFirstOwner } from '../../core/users/setup.ts';
import { signIn, FAILURES_PER_EMAIL, FAILURES_PER_ADDRESS, SIGN_IN_WINDOW_SECONDS } from '../../core/users/sign-in.ts';
import { createSession, endAllSessions, findSession, sha256Hex } from '../../core/users/sessions.ts';
import { acceptInvite, createInvite, findInvite, INVITE_DAYS } from '../../core/users/invites.ts';
import { listMemberships, listProjectsOf, projectAccess } from '../../core/users/memberships.ts';
import { createProject } from '../../core/accounts/create-project.ts';
import { ADMIN } from '../../core/actor.ts';
import { domainError, useCore } from '../core/support/core-harness.ts';

// The counters expire their keys by the real clock, so the sign-in tests' window must not end while
// they run (one that did let the failures expire mid-test, and the lockout never came): start just
// after the next window begins, 15 to 30 minutes ahead of the real time.
const WINDOW_MS = SIGN_IN_WINDOW_SECONDS * 1000;
let now = new Date(Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + WINDOW_MS + 1000);
const clock: Clock = { now: () => now };
const core = useCore({ clock });

const PASSWORD = 'correct horse battery';
let owner: { id: string; email: string; accountId: string };

describe('first-owner setup', () => {
  it('refuses a wrong admin token and invalid input, writing nothing', async () => {
    expect(await needsSetup(core.deps)).toBe(true);
    expect(await domainError(setupFirstOwner(core.deps, { adminToken: 'wrong', email: 'o@example.com', password: PASSWORD, accountName: 'Acme', plan: 'team' }))).toMatchObject({ code: 'unauthorized' });
    expect(await domainError(setupFirstOwner(core.deps, { adminToken: core.deps.adminToken, email: 'not-an-email', password: 'short', accountName: 'Acme', plan: 'team' }))).toMatchObject({
      code: 'validation',
      issues: [expect.objectContaining({ loc: ['email'] }), expect.objectContaining({ loc: ['password'] })],
    });
    expect(await needsSetup(core.deps)).toBe(true);
  });

  it('creates the first user, owner of a new account, once', async () => {
    owner = await setupFirstOwner(core.deps, { adminToken: core.deps.adminToken, email: ' Owner@Example.com ', password: PASSWORD, accountName: 'Acme', plan: 'team' });
    expect(owner.email).toBe('owner@example.com');
    expect(await needsSetup(core.deps)).toBe(false);
    expect(await listMemberships(core.deps, owner.id)).toEqual([{ account_id: owner.accountId, account_name: 'Acme', plan: 'team', role: 'owner', languages: null }]);
    const [row] = await core.deps.sql<{ password_hash: string }[]>`select password_hash from users where id = ${owner.id}`;
    expect(row!.password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(row!.password_hash).not.toContain(PASSWORD);
    expect(await domainError(setupFirstOwner(core.deps, { adminToken: core.deps.adminToken, email: 'x@example.com', password: PASSWORD, accountName: 'B', plan: 'team' }))).toMatchObject({ code: 'conflict' });
  });
});

describe('sign-in', () => {
  it('accepts the right password whatever the case of the address, refuses a wrong one the same way as an unknown address', async () => {
    expect(await signIn(core.deps, { email: 'OWNER@example.com', password: PASSWORD })).toEqual({ id: owner.id, email: 'owner@example.com' });
    const wrong = await domainError(signIn(core.deps, { email: 'owner@example.com', password: 'nope nope nope' }));
    const unknown = await domainError(signIn(core.deps, { email: 'nobody@example.com', password: 'nope nope nope' }));
    expect([wrong.code, wrong.message]).toEqual(['unauthorized', 'Wrong email or password']);
    expect([unknown.code, unknown.message]).toEqual([wrong.code, wrong.message]);
  });

  it('refuses an email after too many failures, even with the right password, until the window ends', async () => {
    const email = 'owner@example.com';
    // One failure happened above.
    for (let i = 1; i < FAILURES_PER_EMAIL; i++) await domainError(signIn(core.deps, { email, password: 'wrong password' }));
    const refused = await domainError(signIn(core.deps, { email, password: PASSWORD }));
    expect(refused.code).toBe('rate_limited');
    expect((refused.data as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    now = new Date(now.getTime() + 16 * 60_000);
    expect((await signIn(core.deps, { email, password: PASSWORD })).id).toBe(owner.id);
  });

  it('refuses an address after too many failures across emails', async () => {
    const address = '203.0.113.7';
    for (let i = 0; i < FAILURES_PER_ADDRESS; i++) {
      expect((await domainError(signIn(core.deps, { email: `guess${i}@example.com`, password: 'wrong password', address }))).code).toBe('unauthorized');
    }
    expect((await domainError(signIn(core.deps, { email: 'owner@example.com', password: PASSWORD, address }))).code).toBe('rate_limited');
    expect((await signIn(core.deps, { email: 'owner@example.com', password: PASSWORD, address: '203.0.113.8' })).id).toBe(owner.id);
    now = new Date(now.getTime() + 16 * 60_000);
  }, 120_000);
});

describe('sessions', () => {
  it('stores only a hash, expires, and ends everywhere at once', async () => {
    const a = await createSession(core.deps, owner.id);
    const b = await createSession(core.deps, owner.id);
    expect(await findSession(core.deps, a.token)).toEqual({ user: { id: owner.id, email: 'owner@example.com' }, csrf: a.csrf });
    const rows = await core.deps.sql<{ id_hash: string }[]>`select id_hash from user_sessions where user_id = ${owner.id}`;
    expect(rows.map((r) => r.id_hash)).toContain(sha256Hex(a.token));
    expect(rows.map((r) => r.id_hash)).not.toContain(a.token);
    expect(await findSession(core.deps, 'x'.repeat(43))).toBeNull();
    expect(await findSession(core.deps, "' or 1=1 --")).toBeNull();

    expect(await endAllSessions(core.deps, owner.id)).toBe(2);
    expect(await findSession(core.deps, a.token)).toBeNull();
    expect(await findSession(core.deps, b.token)).toBeNull();

    const c = await createSession(core.deps, owner.id);
    now = new Date(now.getTime() + 15 * 86_400_000);
    expect(await findSession(core.deps, c.token)).toBeNull();
  });
});

describe('invitations and memberships', () => {
  it('an owner invites; the link works once; the member sees only that account', async () => {
    const other = await core.newProject('team');
    const project = await createProject(core.deps, { accountId: owner.accountId, name: 'Web', actor: ADMIN });
    const invite = await createInvite(core.deps, { userId: owner.id, accountId: owner.accountId, role: 'translator', languages: ['de', 'FR'] });
    expect(invite).toMatchObject({ role: 'translator', languages: ['de', 'fr'] });
    const [stored] = await core.deps.sql<{ token_hash: string }[]>`select token_hash from invites where id = ${invite.id}`;
    expect(stored!.token_hash).toBe(sha256Hex(invite.token));

    const member = await acceptInvite(core.deps, { token: invite.token, email: 'tr@example.com', password: PASSWORD });
    expect(member.accountId).toBe(owner.accountId);
    expect(await findInvite(core.deps, invite.token)).toBeNull();
    expect((await domainError(acceptInvite(core.deps, { token: invite.token, email: 'again@example.com', password: PASSWORD }))).code).toBe('not_found');

    expect(await listProjectsOf(core.deps, member.id)).toEqual([expect.objectContaining({ id: project.id, name: 'Web' })]);
    expect(await projectAccess(core.deps, member.id, project.id)).toMatchObject({ role: 'translator', languages: ['de', 'fr'] });
    expect(await projectAccess(core.deps, member.id, other.projectId)).toBeNull();
  });

  it('only owners invite, and links expire', async () => {
    const [member] = await core.deps.sql<{ id: string }[]>`select id from users where email = 'tr@example.com'`;
    expect((await domainError(createInvite(core.deps, { userId: member!.id, accountId: owner.accountId, role: 'owner' }))).code).toBe('forbidden');
    const stranger = await core.newAccount('team');
    expect((await domainError(createInvite(core.deps, { userId: owner.id, accountId: stranger, role: 'owner' }))).code).toBe('not_found');

    const invite = await createInvite(core.deps, { userId: owner.id, accountId: owner.accountId, role: 'developer', languages: ['de'] });
    expect(invite.languages).toBeNull();
    now = new Date(now.getTime() + (INVITE_DAYS + 1) * 86_400_000);
    expect((await domainError(acceptInvite(core.deps, { token: invite.token, email: 'late@example.com', password: PASSWORD }))).code).toBe('not_found');
  });

  it('an existing user joins another account with their own password only', async () => {
    const second = await setupSecondAccount();
    const invite = await createInvite(core.deps, { userId: owner.id, accountId: second, role: 'reviewer' });
    expect((await domainError(acceptInvite(core.deps, { token: invite.token, email: 'tr@example.com', password: 'not the password' }))).code).toBe('unauthorized');
    const joined = await acceptInvite(core.deps, { token: invite.token, email: 'tr@example.com', password: PASSWORD });
    const memberships = await listMemberships(core.deps, joined.id);
    expect(memberships.map((m) => [m.account_id, m.role]).sort()).toEqual([[owner.accountId, 'translator'], [second, 'reviewer']].sort());
  });
});

describe('members', () => {
  it('owners change roles and remove members, but never the last owner', async () => {
    const { changeRole, removeMember } = await import('../../core/users/members.ts');
    const [member] = await core.deps.sql<{ id: string }[]>`select id from users where email = 'tr@example.com'`;
    await changeRole(core.deps, { userId: owner.id, accountId: owner.accountId, memberId: member!.id, role: 'reviewer', languages: ['fr'] });
    expect(await projectAccessRole(member!.id)).toEqual({ role: 'reviewer', languages: ['fr'] });
    expect((await domainError(changeRole(core.deps, { userId: member!.id, accountId: owner.accountId, memberId: owner.id, role: 'translator' }))).code).toBe('forbidden');
    expect((await domainError(changeRole(core.deps, { userId: owner.id, accountId: owner.accountId, memberId: owner.id, role: 'developer' }))).code).toBe('conflict');
    expect((await domainError(removeMember(core.deps, { userId: owner.id, accountId: owner.accountId, memberId: owner.id }))).code).toBe('conflict');
    await changeRole(core.deps, { userId: owner.id, accountId: owner.accountId, memberId: member!.id, role: 'owner', languages: ['fr'] });
    expect(await projectAccessRole(member!.id)).toEqual({ role: 'owner', languages: null });
    // With two owners, one may step down.
    await changeRole(core.deps, { userId: owner.id, accountId: owner.accountId, memberId: owner.id, role: 'developer' });
    await removeMember(core.deps, { userId: member!.id, accountId: owner.accountId, memberId: owner.id });
    expect((await listMemberships(core.deps, owner.id)).map((m) => m.account_id)).not.toContain(owner.accountId);
    expect((await domainError(removeMember(core.deps, { userId: member!.id, accountId: owner.accountId, memberId: crypto.randomUUID() }))).code).toBe('not_found');
  });
});

async function projectAccessRole(userId: string) {
  const [row] = await core.deps.sql<{ role: string; languages: string[] | null }[]>`
    select role, languages from memberships where user_id = ${userId} and account_id = ${owner.accountId}`;
  return row;
}

/** A second account the owner also owns (made directly: account creation for users is not a portal action yet). */
async function setupSecondAccount(): Promise<string> {
  const account = await core.newAccount('free');
  await core.deps.sql`insert into memberships (user_id, account_id, role) values (${owner.id}, ${account}, 'owner')`;
  return account;
}
