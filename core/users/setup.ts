// First-owner setup: on a fresh installation, whoever holds the admin token (printed by `npm start`)
// creates the first portal user and their account. Once any user exists, setup is closed: more
// people join by invitation.
import type { Deps } from '../deps.ts';
import { ADMIN } from '../actor.ts';
import { conflict } from '../errors.ts';
import { checkAdminToken } from '../auth/admin-token-check.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { createAccount } from '../accounts/create-account.ts';
import { hashPassword } from './password.ts';
import { SetupCommand, type SessionUser } from './schemas.ts';

export const setupClosed = () => conflict('Setup is already done: sign in, or ask an owner for an invitation');

/** True while no portal user exists: the portal then offers the setup page. */
export async function needsSetup(deps: Pick<Deps, 'sql'>): Promise<boolean> {
  const [row] = await deps.sql<{ any: boolean }[]>`select exists (select 1 from users) as any`;
  return !row!.any;
}

export const setupFirstOwner = useCase(
  SetupCommand,
  async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'adminToken' | 'authFailures'>, input): Promise<SessionUser & { accountId: string }> => {
    // Checked (and wrong tokens counted per address, as on the admin API) before "setup closed":
    // otherwise 401 against 409 would tell a guesser, unthrottled, when a token is right.
    checkAdminToken(deps, input.adminToken, input.address);
    if (!(await needsSetup(deps))) throw setupClosed();
    // Hashed before the transaction: scrypt takes a noticeable moment, and holds no lock meanwhile.
    const passwordHash = await hashPassword(input.password);
    return transaction(deps, async (tx) => {
      // Two setups racing: the table lock makes the second see the first's user and stop.
      await tx.sql`lock table users in share row exclusive mode`;
      const [existing] = await tx.sql`select 1 from users limit 1`;
      if (existing) throw setupClosed();
      const account = await createAccount({ ...deps, tx }, { name: input.accountName, plan: input.plan, actor: ADMIN });
      const [user] = await tx.sql<{ id: string }[]>`
        insert into users (email, password_hash) values (${input.email}, ${passwordHash}) returning id`;
      await tx.sql`insert into memberships (user_id, account_id, role) values (${user!.id}, ${account.id}, 'owner')`;
      tx.record({
        type: 'member.added',
        projectId: null,
        accountId: account.id,
        actor: ADMIN,
        entity: { type: 'member', id: user!.id },
        after: { email: input.email, role: 'owner', languages: null },
      });
      return { id: user!.id, email: input.email, accountId: account.id };
    });
  },
);
