import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import type { Account, UpdateAccountInput } from './schemas.ts';

/**
 * Changes an account's plan or daily-limit override. A downgrade keeps existing keys, languages
 * and projects; only new ones beyond the new limits are refused (docs/decisions.md).
 */
export async function updateAccount(
  deps: Pick<Deps, 'sql' | 'apiKeys'>,
  accountId: string,
  input: UpdateAccountInput,
): Promise<Account> {
  const setLimit = input.daily_call_limit !== undefined;
  const [row] = await deps.sql<Account[]>`
    update accounts set
      plan = coalesce(${input.plan ?? null}, plan),
      daily_call_limit = case when ${setLimit} then ${input.daily_call_limit ?? null}::integer else daily_call_limit end
    where id = ${accountId}
    returning id, name, plan, daily_call_limit`;
  if (!row) throw notFound('Account not found');
  // Cached principals carry the plan: make the change visible at once in this process.
  deps.apiKeys.evictAccount(accountId);
  return row;
}
