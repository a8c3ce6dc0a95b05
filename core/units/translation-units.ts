// The monthly translation-unit quota (spec sections 7 and 8). A unit is one value whose text an
// import (or, later, machine translation) creates or changes; a text already stored for that key
// and language (a translation-memory hit) is free. The spec refuses work once usage would pass
// twice the allowance: that is the hard limit checked here.
//
// Exact under concurrency: the charge is one conditional upsert on the account's cycle row, in the
// caller's transaction. Concurrent charges serialize on that row, and each re-checks the limit
// against the committed total (READ COMMITTED re-evaluates ON CONFLICT's WHERE on the newest row),
// so parallel imports never pass the limit together and never refuse one that fits. A rolled-back
// import rolls its charge back with it.
import type { Sql, TransactionSql } from '../db/client.ts';
import { quotaExceeded } from '../errors.ts';
import { PLAN_LIMITS, type Plan } from '../accounts/plans.ts';
import { cycleStart, nextCycleStart } from './billing-cycle.ts';

/** Usage beyond this multiple of the allowance is refused (the spec's "2 times the plan's monthly quota"). */
export const HARD_LIMIT_FACTOR = 2;

export type UnitAccount = { accountId: string; plan: Plan; translationUnitAllowance: number | null };

/** allowance and limit are null without a limit (the unlimited plan): units are still counted. */
export type UnitStanding = { used: number; allowance: number | null; limit: number | null; resetsAt: Date };

export const allowanceOf = (account: UnitAccount) =>
  account.translationUnitAllowance ?? PLAN_LIMITS[account.plan].translationUnitsPerMonth;

function standing(account: UnitAccount, used: number, now: Date): UnitStanding {
  const allowance = allowanceOf(account);
  return { used, allowance, limit: allowance === null ? null : allowance * HARD_LIMIT_FACTOR, resetsAt: nextCycleStart(now) };
}

export async function readUnits(sql: Sql | TransactionSql, account: UnitAccount, now: Date): Promise<UnitStanding> {
  const [row] = await sql<{ used: string }[]>`
    select used from translation_unit_usage where account_id = ${account.accountId} and cycle_start = ${cycleStart(now)}`;
  return standing(account, Number(row?.used ?? 0), now);
}

function refusal(current: UnitStanding & { limit: number }, units: number, upgradeUrl: string) {
  return quotaExceeded({
    used: current.used + units,
    limit: current.limit,
    reset_date: current.resetsAt.toISOString().slice(0, 10),
    upgrade_url: upgradeUrl,
  });
}

/**
 * Spends `units` in the caller's transaction, or throws 402 QUOTA_EXCEEDED (with what the usage
 * would have been) when that would pass the hard limit. `dryRun` decides the same without spending.
 */
export async function chargeUnits(
  tx: TransactionSql,
  input: { account: UnitAccount; units: number; now: Date; upgradeUrl: string; dryRun: boolean },
): Promise<UnitStanding> {
  const { account, units, now } = input;
  const current = await readUnits(tx, account, now);
  if (units === 0) return current;
  const { limit } = current;
  if (input.dryRun) {
    if (limit !== null && current.used + units > limit) throw refusal({ ...current, limit }, units, input.upgradeUrl);
    return { ...current, used: current.used + units };
  }
  // A null limit (the unlimited plan) is a null bound: the conditions then always hold.
  const [row] = await tx<{ used: string }[]>`
    insert into translation_unit_usage as u (account_id, cycle_start, used)
    select ${account.accountId}, ${cycleStart(now)}, ${units}
    where ${limit}::bigint is null or ${units}::bigint <= ${limit}::bigint
    on conflict (account_id, cycle_start) do update set used = u.used + excluded.used
      where ${limit}::bigint is null or u.used + excluded.used <= ${limit}::bigint
    returning used`;
  if (!row) throw refusal({ ...(await readUnits(tx, account, now)), limit: limit! }, units, input.upgradeUrl);
  return standing(account, Number(row.used), now);
}
