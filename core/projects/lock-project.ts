import type { TransactionSql } from '../db/client.ts';
import { notFound, planLimit } from '../errors.ts';
import { PLAN_LIMITS, type Plan, type PlanLimits } from '../accounts/plans.ts';

/**
 * Locks the project row for the rest of the transaction and returns its plan's limits.
 * Structural changes of one project (key creation, group rename, language registration, restore)
 * take this lock, so plan limits and name checks hold exactly under concurrency.
 *
 * FOR NO KEY UPDATE, not FOR UPDATE: the lock excludes the other structural changes (and any
 * update of the row) all the same, but not the foreign-key checks of writes that take no project
 * lock (FOR KEY SHARE of this row: a key created without a limit; until migration 045, the first
 * source-language value of a key inserting its translation-memory row). Under FOR UPDATE such a write waited for the
 * whole transaction while holding the rows it had written, and an import reaching one of those
 * rows closed a cycle: Postgres ended one side with a deadlock, a 500 (test/files/import-races.test.ts).
 */
export type LockedProject = {
  plan: Plan;
  limits: PlanLimits;
  accountId: string;
  /** The admin override of the plan's monthly translation units, or null. */
  translationUnitAllowance: number | null;
};

export async function lockProject(tx: TransactionSql, projectId: string): Promise<LockedProject> {
  const [row] = await tx<{ plan: Plan; account_id: string; translation_unit_allowance: number | null }[]>`
    select a.plan, a.id as account_id, a.translation_unit_allowance
    from projects p join accounts a on a.id = p.account_id
    where p.id = ${projectId} for no key update of p`;
  if (!row) throw notFound('Project not found');
  return {
    plan: row.plan,
    limits: PLAN_LIMITS[row.plan],
    accountId: row.account_id,
    translationUnitAllowance: row.translation_unit_allowance,
  };
}

/** Throws 402 when adding `adding` live keys would pass the plan's key limit. */
export async function assertKeyCapacity(
  tx: TransactionSql,
  projectId: string,
  plan: Plan,
  limit: number | null,
  adding: number,
): Promise<void> {
  if (limit === null) return;
  const [row] = await tx<{ count: number }[]>`
    select count(*)::int as count from translation_keys where project_id = ${projectId} and deleted_at is null`;
  if (row!.count + adding > limit) throw keyLimitReached(plan, limit, row!.count, adding);
}

/** The 402 of a key limit, from a count the caller already made. */
export function keyLimitReached(plan: Plan, limit: number, current: number, adding: number) {
  return planLimit(
    `Key limit reached: the ${plan} plan allows ${limit.toLocaleString('en-US')} keys per project (this project has ${current.toLocaleString('en-US')}). Upgrade the plan to add more.`,
    { resource: 'keys', plan, limit, current, adding },
  );
}
