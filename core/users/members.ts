// Owners change a member's role (and language limits) or remove them. An account always keeps at
// least one owner: demoting or removing the last one is refused (409), so nobody is locked out.
// A member who leaves, or loses the right to invite, takes their pending invitations with them: a
// link they kept would otherwise let them (or whoever holds it) back in with the role it names.
import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { conflict, notFound } from '../errors.ts';
import { transaction, type Tx } from '../db/transaction.ts';
import { pruneAssignments } from '../tasks/task-assignees.ts';
import { useCase } from '../use-case.ts';
import { Uuid } from '../validation.ts';
import { assertMay, may } from './permissions.ts';
import { MemberLanguages, Role } from './schemas.ts';

const MemberCommand = { userId: Uuid, accountId: Uuid, memberId: Uuid };
export const ChangeRoleCommand = v.object({ ...MemberCommand, role: Role, languages: v.optional(MemberLanguages, null) });
export const RemoveMemberCommand = v.object(MemberCommand);

type MemberRow = { role: string; languages: string[] | null };

async function lockMembers(tx: Tx, input: { userId: string; accountId: string; memberId: string }): Promise<{ target: MemberRow; owners: number }> {
  // Every membership of the account, locked: two owners demoting each other serialize here.
  const rows = await tx.sql<{ user_id: string; role: string; languages: string[] | null }[]>`
    select user_id, role, languages from memberships where account_id = ${input.accountId} order by user_id for update`;
  const me = rows.find((r) => r.user_id === input.userId);
  if (!me) throw notFound('Account not found');
  assertMay(me.role as 'owner', 'members.manage');
  const target = rows.find((r) => r.user_id === input.memberId);
  if (!target) throw notFound('Member not found');
  return { target, owners: rows.filter((r) => r.role === 'owner').length };
}

/** Ends the pending invitations `memberId` made in the account, each recorded as a revocation by the actor. */
async function revokeInvitesBy(tx: Tx, now: Date, input: { userId: string; accountId: string; memberId: string }): Promise<void> {
  const revoked = await tx.sql<{ id: string; role: string; languages: string[] | null }[]>`
    update invites set expires_at = ${now}
    where account_id = ${input.accountId} and created_by = ${input.memberId} and accepted_at is null and expires_at > ${now}
    returning id, role, languages`;
  for (const invite of revoked) {
    tx.record({
      type: 'member.invite_revoked',
      projectId: null,
      accountId: input.accountId,
      actor: { type: 'user', id: input.userId },
      entity: { type: 'member', id: invite.id },
      before: { role: invite.role, languages: invite.languages, made_by: input.memberId },
    });
  }
}

const lastOwner = () => conflict('An account needs at least one owner: make someone else owner first');

export const changeRole = useCase(ChangeRoleCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'clock'>, input): Promise<void> =>
  transaction(deps, async (tx) => {
    const { target, owners } = await lockMembers(tx, input);
    if (target.role === 'owner' && input.role !== 'owner' && owners === 1) throw lastOwner();
    const languages = input.role === 'translator' || input.role === 'reviewer' ? (input.languages?.length ? input.languages : null) : null;
    await tx.sql`update memberships set role = ${input.role}, languages = ${languages} where account_id = ${input.accountId} and user_id = ${input.memberId}`;
    if (may(target.role as Role, 'members.manage') && !may(input.role, 'members.manage')) await revokeInvitesBy(tx, deps.clock.now(), input);
    // Tasks they may no longer do are no longer theirs (core/tasks/task-assignees.ts).
    await pruneAssignments(tx.sql, input.accountId, input.memberId, { role: input.role, languages });
    tx.record({
      type: 'member.updated',
      projectId: null,
      accountId: input.accountId,
      actor: { type: 'user', id: input.userId },
      entity: { type: 'member', id: input.memberId },
      before: target,
      after: { role: input.role, languages },
    });
  }),
);

export const removeMember = useCase(RemoveMemberCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'clock'>, input): Promise<void> =>
  transaction(deps, async (tx) => {
    const { target, owners } = await lockMembers(tx, input);
    if (target.role === 'owner' && owners === 1) throw lastOwner();
    await tx.sql`delete from memberships where account_id = ${input.accountId} and user_id = ${input.memberId}`;
    await revokeInvitesBy(tx, deps.clock.now(), input);
    await pruneAssignments(tx.sql, input.accountId, input.memberId, null);
    // Their open sessions stay (they may belong to other accounts), but every page checks membership.
    tx.record({ type: 'member.removed', projectId: null, accountId: input.accountId, actor: { type: 'user', id: input.userId }, entity: { type: 'member', id: input.memberId }, before: target });
  }),
);
