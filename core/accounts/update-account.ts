import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { UpdateAccountCommand, type Account } from './schemas.ts';

/**
 * Changes an account's plan or daily-limit override. A downgrade keeps existing keys, languages
 * and projects; only new ones beyond the new limits are refused (docs/decisions.md).
 */
export const updateAccount = useCase(UpdateAccountCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'apiKeys'>, input): Promise<Account> => {
  const { accountId } = input;
  const row = await transaction(deps, async (tx) => {
    const [before] = await tx.sql<Account[]>`
      select id, name, plan, daily_call_limit, translation_unit_allowance from accounts where id = ${accountId} for update`;
    if (!before) throw notFound('Account not found');
    const [after] = await tx.sql<Account[]>`
      update accounts set
        plan = ${input.plan ?? before.plan},
        daily_call_limit = ${input.daily_call_limit === undefined ? before.daily_call_limit : input.daily_call_limit},
        translation_unit_allowance = ${
          input.translation_unit_allowance === undefined ? before.translation_unit_allowance : input.translation_unit_allowance
        }
      where id = ${accountId}
      returning id, name, plan, daily_call_limit, translation_unit_allowance`;
    tx.record({ type: 'account.updated', projectId: null, accountId, actor: input.actor, entity: { type: 'account', id: accountId }, before, after });
    return after!;
  });
  // Cached principals carry the plan: make the change visible at once in this process.
  deps.apiKeys.evictAccount(accountId);
  return row;
});
