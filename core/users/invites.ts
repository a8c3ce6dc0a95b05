// Invitations: an owner creates a one-time link (shown once, to copy; it expires after INVITE_DAYS);
// whoever opens it chooses a password and joins the account with the invite's role. An address
// that already has a user joins with that user's password (no second account for one address), and
// that check is a sign-in's: the same failed-attempt counters and lockout (password-attempts.ts),
// the same answer for a wrong password. A failed attempt leaves the link usable (a typo must not
// cost the invitation); the counters bound the guessing, exactly as on the sign-in form.
import type { Deps } from '../deps.ts';
import { conflict, notFound } from '../errors.ts';
import { transaction, type Tx } from '../db/transaction.ts';
import { ADMIN, type Actor } from '../actor.ts';
import { useCase } from '../use-case.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { beginPasswordAttempt, wrongCredentials } from './password-attempts.ts';
import { assertMay } from './permissions.ts';
import { randomToken, sha256Hex } from './sessions.ts';
import { AcceptInviteCommand, AdminInviteCommand, CreateInviteCommand, type Role, type SessionUser } from './schemas.ts';

export const INVITE_DAYS = 7;

export type CreatedInvite = { id: string; token: string; role: Role; languages: string[] | null; expires_at: string };

export const createInvite = useCase(CreateInviteCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'clock'>, input): Promise<CreatedInvite> =>
  transaction(deps, async (tx) => {
    const [member] = await tx.sql<{ role: Role }[]>`
      select role from memberships where user_id = ${input.userId} and account_id = ${input.accountId}`;
    if (!member) throw notFound('Account not found');
    assertMay(member.role, 'members.manage');
    return insertInvite(tx, deps.clock.now(), { ...input, createdBy: input.userId, actor: { type: 'user', id: input.userId } });
  }),
);

/**
 * The operator's invitation (admin API): a link into any account, by default as its owner. An
 * account made through the admin API has no portal member, and setup makes an account of its own:
 * this is how such an account's people reach it in the portal.
 */
export const inviteToAccount = useCase(AdminInviteCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'clock'>, input): Promise<CreatedInvite> =>
  transaction(deps, async (tx) => {
    const [account] = await tx.sql`select 1 from accounts where id = ${input.accountId}`;
    if (!account) throw notFound('Account not found');
    return insertInvite(tx, deps.clock.now(), { ...input, createdBy: null, actor: ADMIN });
  }),
);

async function insertInvite(
  tx: Tx,
  now: Date,
  input: { accountId: string; role: Role; languages?: string[] | null | undefined; createdBy: string | null; actor: Actor },
): Promise<CreatedInvite> {
  // Language limits only mean something for the roles that have them.
  const languages = input.role === 'translator' || input.role === 'reviewer' ? (input.languages?.length ? input.languages : null) : null;
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + INVITE_DAYS * 86_400_000);
  // The account's used and expired invitations go as a new one is made: a link to them answers
  // as a link never made does, and the events (member.invited, member.added) keep the record.
  await tx.sql`delete from invites where account_id = ${input.accountId} and (accepted_at is not null or expires_at <= ${now})`;
  const [row] = await tx.sql<{ id: string }[]>`
    insert into invites (token_hash, account_id, role, languages, created_by, expires_at)
    values (${sha256Hex(token)}, ${input.accountId}, ${input.role}, ${languages}, ${input.createdBy}, ${expiresAt})
    returning id`;
  tx.record({
    type: 'member.invited',
    projectId: null,
    accountId: input.accountId,
    actor: input.actor,
    entity: { type: 'member', id: row!.id },
    after: { role: input.role, languages, expires_at: expiresAt.toISOString() },
  });
  return { id: row!.id, token, role: input.role, languages, expires_at: expiresAt.toISOString() };
}

/** An invitation not used yet and not expired: who may still join, and as what. */
export type PendingInvite = { id: string; role: Role; languages: string[] | null; created_at: string; expires_at: string; created_by: string | null };

/** The account's pending invitations, newest first (the owner's Members page; tokens are never shown again). */
export async function pendingInvites(deps: Pick<Deps, 'sql' | 'clock'>, accountId: string): Promise<PendingInvite[]> {
  return deps.sql<PendingInvite[]>`
    select i.id, i.role, i.languages, i.created_at, i.expires_at, u.email as created_by
    from invites i left join users u on u.id = i.created_by
    where i.account_id = ${accountId} and i.accepted_at is null and i.expires_at > ${deps.clock.now()}
    order by i.created_at desc, i.id`;
}

/**
 * Ends an invitation before it is used (a link sent to the wrong person, with the wrong role): it
 * expires now, so the link answers as an expired one does. Owners only (members.manage).
 */
export async function revokeInvite(
  deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'clock'>,
  input: { userId: string; accountId: string; inviteId: string },
): Promise<void> {
  await transaction(deps, async (tx) => {
    const [member] = await tx.sql<{ role: Role }[]>`
      select role from memberships where user_id = ${input.userId} and account_id = ${input.accountId}`;
    if (!member) throw notFound('Account not found');
    assertMay(member.role, 'members.manage');
    const [revoked] = await tx.sql<{ role: Role; languages: string[] | null }[]>`
      update invites set expires_at = ${deps.clock.now()}
      where id = ${input.inviteId} and account_id = ${input.accountId} and accepted_at is null and expires_at > ${deps.clock.now()}
      returning role, languages`;
    if (!revoked) throw notFound('Invitation not found: it was already used, revoked or expired');
    tx.record({
      type: 'member.invite_revoked',
      projectId: null,
      accountId: input.accountId,
      actor: { type: 'user', id: input.userId },
      entity: { type: 'member', id: input.inviteId },
      before: { role: revoked.role, languages: revoked.languages },
    });
  });
}

type OpenInvite = { id: string; account_id: string; account_name: string; role: Role; languages: string[] | null };

const inviteGone = () => notFound('This invitation link is unknown, already used or expired: ask for a new one');

/** The invite a link's token names, while it is unused and unexpired. */
export async function findInvite(deps: Pick<Deps, 'sql' | 'clock'>, token: string): Promise<OpenInvite | null> {
  if (token.length > 200) return null;
  const [row] = await deps.sql<OpenInvite[]>`
    select i.id, i.account_id, a.name as account_name, i.role, i.languages
    from invites i join accounts a on a.id = i.account_id
    where i.token_hash = ${sha256Hex(token)} and i.accepted_at is null and i.expires_at > ${deps.clock.now()}`;
  return row ?? null;
}

/** `joined` false: the user was already a member (their password was right: they are signed in, the link stays unused). */
export type AcceptedInvite = SessionUser & { accountId: string; joined: boolean };

export const acceptInvite = useCase(AcceptInviteCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'clock' | 'counters'>, input): Promise<AcceptedInvite> => {
  const invite = await findInvite(deps, input.token);
  if (!invite) throw inviteGone();
  // Refused past the limit before anything is looked up, for every address (known or not), so a
  // 429 reveals nothing about who has an account.
  const attempt = await beginPasswordAttempt(deps, input.email, input.address);
  const [existing] = await deps.sql<{ id: string; password_hash: string }[]>`select id, password_hash from users where email = ${input.email}`;
  if (existing && !(await verifyPassword(input.password, existing.password_hash))) {
    await attempt.failed();
    throw wrongCredentials();
  }
  if (existing) {
    const [member] = await deps.sql`select 1 from memberships where user_id = ${existing.id} and account_id = ${invite.account_id}`;
    if (member) return { id: existing.id, email: input.email, accountId: invite.account_id, joined: false };
  }
  const passwordHash = existing ? null : await hashPassword(input.password);
  return transaction(deps, async (tx) => {
    // The link is used once: the first acceptance takes it, a concurrent second finds nothing; and
    // only while it is still valid: a revoke (which expires it) or its expiry during the password
    // hashing above wins over the join.
    const now = deps.clock.now();
    const [taken] = await tx.sql`
      update invites set accepted_at = ${now} where id = ${invite.id} and accepted_at is null and expires_at > ${now} returning 1`;
    if (!taken) throw inviteGone();
    let userId = existing?.id;
    if (!userId) {
      const [user] = await tx.sql<{ id: string }[]>`
        insert into users (email, password_hash) values (${input.email}, ${passwordHash}) returning id`;
      userId = user!.id;
    }
    const added = await tx.sql`
      insert into memberships (user_id, account_id, role, languages)
      values (${userId}, ${invite.account_id}, ${invite.role}, ${invite.languages})
      on conflict do nothing returning 1`;
    if (added.length === 0) throw conflict('You are already a member of this account');
    await tx.sql`update invites set accepted_by = ${userId} where id = ${invite.id}`;
    tx.record({
      type: 'member.added',
      projectId: null,
      accountId: invite.account_id,
      actor: { type: 'user', id: userId },
      entity: { type: 'member', id: userId },
      after: { email: input.email, role: invite.role, languages: invite.languages, invite_id: invite.id },
    });
    return { id: userId, email: input.email, accountId: invite.account_id, joined: true };
  });
});
