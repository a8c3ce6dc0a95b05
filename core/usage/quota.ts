// The daily API-call quota's arithmetic, kept apart from the counter store so that day boundaries
// and the grace margin are tested without I/O. Days are UTC days for every account: one reset time
// the documentation can state, whatever the caller's time zone.

const DAY_MS = 86_400_000;
const DAY_SECONDS = 86_400;

export type QuotaDecision = {
  allowed: boolean;
  /** Calls left within the limit itself (grace not counted); never negative; null without a limit. */
  remaining: number | null;
};

/** 'YYYY-MM-DD' of the UTC day containing `nowMs`: the counter key's day part. */
// Every counted call needs the day's key: format it once per UTC day, not per call.
let memoDay = Number.NaN;
let memoKey = '';
export function utcDayKey(nowMs: number): string {
  const day = Math.floor(nowMs / DAY_MS);
  if (day !== memoDay) {
    memoKey = new Date(day * DAY_MS).toISOString().slice(0, 10);
    memoDay = day;
  }
  return memoKey;
}

/** When today's counter should expire: the start of the next UTC day, in Unix seconds. */
export function nextUtcMidnightUnixSeconds(nowMs: number): number {
  return (Math.floor(nowMs / DAY_MS) + 1) * DAY_SECONDS;
}

/** For a Retry-After header: whole seconds until the quota resets, at least 1. */
export function secondsUntilUtcMidnight(nowMs: number): number {
  const untilMidnightMs = nextUtcMidnightUnixSeconds(nowMs) * 1000 - nowMs;
  return Math.max(1, Math.ceil(untilMidnightMs / 1000));
}

/** Calls tolerated beyond the limit (the spec's "grace zone"): 10% of it, rounded down (a limit under 10 has none). */
export function graceAllowance(limit: number | null): number {
  return limit === null ? 0 : Math.floor(limit / 10);
}

/** `used` already counts the call being decided on; a null limit (the unlimited plan) allows every call. */
export function decide(used: number, limit: number | null): QuotaDecision {
  if (limit === null) return { allowed: true, remaining: null };
  return {
    allowed: used <= limit + graceAllowance(limit),
    remaining: Math.max(0, limit - used),
  };
}
