import type { Deps } from '../deps.ts';
import type { Account, CreateAccountInput } from './schemas.ts';

export async function createAccount(deps: Pick<Deps, 'sql'>, input: CreateAccountInput): Promise<Account> {
  const [row] = await deps.sql<Account[]>`
    insert into accounts (name, plan) values (${input.name}, ${input.plan})
    returning id, name, plan, daily_call_limit`;
  return row!;
}
