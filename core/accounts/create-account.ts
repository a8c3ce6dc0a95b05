import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { CreateAccountCommand, type Account } from './schemas.ts';

export const createAccount = useCase(CreateAccountCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<Account> =>
  transaction(deps, async (tx) => {
    const [row] = await tx.sql<Account[]>`
      insert into accounts (name, plan) values (${input.name}, ${input.plan})
      returning id, name, plan, daily_call_limit, translation_unit_allowance`;
    tx.record({ type: 'account.created', projectId: null, accountId: row!.id, actor: input.actor, entity: { type: 'account', id: row!.id }, after: row });
    return row!;
  }),
);
