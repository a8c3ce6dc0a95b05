// What an account has spent: today's API calls against the daily limit, and this cycle's
// translation units against the monthly allowance (GET /v1/usage, the CLI's `tms status`).
import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { InProject } from '../commands.ts';
import { useCase } from '../use-case.ts';
import type { Plan } from '../accounts/plans.ts';
import { dailyCallLimit } from './count-call.ts';
import { readUnits } from '../units/translation-units.ts';

export const Usage = v.object({
  project_id: v.string(),
  calls_today: v.number(),
  daily_limit: v.pipe(v.nullable(v.number()), v.description('null: no limit (the unlimited plan)')),
  translation_units_used: v.number(),
  translation_units_allowance: v.pipe(v.nullable(v.number()), v.description('null: no limit (the unlimited plan)')),
  cycle_resets_at: v.string(),
});
export type Usage = v.InferOutput<typeof Usage>;

const ReadUsageCommand = v.object({ ...InProject });

export const readUsage = useCase(ReadUsageCommand, async (deps: Pick<Deps, 'sql' | 'calls' | 'clock'>, { projectId }): Promise<Usage> => {
  const [account] = await deps.sql<
    { account_id: string; plan: Plan; daily_call_limit: number | null; translation_unit_allowance: number | null }[]
  >`
    select a.id as account_id, a.plan, a.daily_call_limit, a.translation_unit_allowance
    from projects p join accounts a on a.id = p.account_id where p.id = ${projectId}`;
  if (!account) throw notFound('Project not found');
  const limit = dailyCallLimit({ plan: account.plan, dailyCallLimit: account.daily_call_limit });
  const now = deps.clock.now();
  const [calls, units] = await Promise.all([
    deps.calls.peek({ accountId: account.account_id, limit }),
    readUnits(deps.sql, { accountId: account.account_id, plan: account.plan, translationUnitAllowance: account.translation_unit_allowance }, now),
  ]);
  return {
    project_id: projectId,
    calls_today: calls.used,
    daily_limit: limit,
    translation_units_used: units.used,
    translation_units_allowance: units.allowance,
    cycle_resets_at: units.resetsAt.toISOString(),
  };
});
