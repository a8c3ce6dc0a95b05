// Billing cycles are calendar months in UTC for every account: one reset date the documentation,
// the 402 and GET /v1/usage can all state, whatever the account's creation date or time zone.

/** 'YYYY-MM-01' of the cycle containing `now`. */
export function cycleStart(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/** The first instant of the next cycle. */
export function nextCycleStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}
