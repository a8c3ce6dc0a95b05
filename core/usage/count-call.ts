// Counts authenticated API calls against each account's daily quota (spec section 8) and decides on
// them. One counter per account per UTC day in the shared CounterStore; a single atomic
// increment-with-expiry per call is both the count and the decision, so concurrent calls can never
// slip more than limit + grace past it.
//
// Fail-open: when the store cannot be reached, calls are counted in this process instead (quota still
// enforced, per process) and the outage is logged once; the store is retried in the background of
// ordinary traffic and takes over again as soon as it answers (docs/rate-limits.md).
import { PLAN_LIMITS, type Plan } from '../accounts/plans.ts';
import { createMemoryCounterStore } from '../adapters/counter-store-memory.ts';
import type { Logger } from '../log.ts';
import type { CounterStore } from '../ports/counter-store.ts';
import { decide, graceAllowance, nextUtcMidnightUnixSeconds, secondsUntilUtcMidnight, utcDayKey } from './quota.ts';

/** The daily quota's window, for RateLimit-Policy's `w`. */
export const DAY_SECONDS = 86_400;

/**
 * Counters outlive their day by this much: a call decided just before midnight whose increment
 * reaches the store just after it must add to the old day's counter, not recreate an expired one.
 */
export const COUNTER_EXPIRY_SLACK_SECONDS = 3_600;

/** While the store is failing, at most one call per interval tries it again; the rest skip it. */
export const DEFAULT_STORE_RETRY_INTERVAL_MS = 1_000;

/** Whose quota a call counts against, and how big it is (null: no limit; calls are still counted). */
export type CallAccount = { accountId: string; limit: number | null };

export type CallTally = {
  /** Calls counted today, the one being decided included (refused ones count too). */
  used: number;
  /** The effective daily limit (X-RateLimit-Limit), or null for none (no rate-limit headers then). */
  limit: number | null;
  /** Calls tolerated beyond the limit before refusing. */
  grace: number;
  /** used <= limit + grace. */
  allowed: boolean;
  /** Calls left within the limit itself; never negative; null without a limit. */
  remaining: number | null;
  /** Whole seconds until the quota resets at the next UTC midnight; at least 1. */
  resetSeconds: number;
  /** Where the count came from: the shared store, or this process during a store outage. */
  source: 'store' | 'process';
};

export type CallCounter = {
  /** Counts one call and decides on it: one store round trip. */
  count(account: CallAccount): Promise<CallTally>;
  /** Today's tally without counting a call (answers that are free, such as 304): one round trip. */
  peek(account: CallAccount): Promise<CallTally>;
};

/** The account's daily call limit: the admin override when set, else its plan's (null: unlimited). */
export function dailyCallLimit(principal: { plan: Plan; dailyCallLimit: number | null }): number | null {
  return principal.dailyCallLimit ?? PLAN_LIMITS[principal.plan].dailyApiCalls;
}

/** The store key of an account's counter for the UTC day containing `nowMs`. */
export function callCounterKey(accountId: string, nowMs: number): string {
  return `calls:${accountId}:${utcDayKey(nowMs)}`;
}

export function createCallCounter(options: {
  store: CounterStore;
  log: Logger;
  /** Milliseconds since the epoch; injected so that day boundaries can be tested. */
  now?: () => number;
  /** Counts during a store outage; in-process memory unless given. */
  fallback?: CounterStore;
  retryIntervalMs?: number;
}): CallCounter {
  const { store, log } = options;
  const now = options.now ?? Date.now;
  const fallback = options.fallback ?? createMemoryCounterStore({ now });
  const retryIntervalMs = options.retryIntervalMs ?? DEFAULT_STORE_RETRY_INTERVAL_MS;

  // 'up': every call goes to the store. 'down': calls go to the fallback, except one probe per
  // retry interval. Only transitions are logged, so an outage is one warning, not one per request.
  let state: 'up' | 'down' = 'up';
  let nextProbeAtMs = 0;
  let probing = false;

  async function run(op: (target: CounterStore) => Promise<number>): Promise<{ value: number; source: CallTally['source'] }> {
    const isProbe = state === 'down';
    if (isProbe) {
      if (probing || now() < nextProbeAtMs) return { value: await op(fallback), source: 'process' };
      probing = true;
    }
    try {
      const value = await op(store);
      if (state === 'down') {
        state = 'up';
        log.info('counter store reachable again: API calls counted in the store');
      }
      return { value, source: 'store' };
    } catch (error) {
      if (state === 'up') {
        state = 'down';
        log.warn('counter store unreachable: counting API calls per process until it answers', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
      nextProbeAtMs = now() + retryIntervalMs;
      return { value: await op(fallback), source: 'process' };
    } finally {
      if (isProbe) probing = false;
    }
  }

  function tally(account: CallAccount, used: number, source: CallTally['source'], atMs: number): CallTally {
    return {
      used,
      limit: account.limit,
      grace: graceAllowance(account.limit),
      ...decide(used, account.limit),
      resetSeconds: secondsUntilUtcMidnight(atMs),
      source,
    };
  }

  return {
    async count(account) {
      const atMs = now();
      const key = callCounterKey(account.accountId, atMs);
      const expireAt = nextUtcMidnightUnixSeconds(atMs) + COUNTER_EXPIRY_SLACK_SECONDS;
      const { value, source } = await run((target) => target.increment(key, expireAt));
      return tally(account, value, source, atMs);
    },
    async peek(account) {
      const atMs = now();
      const key = callCounterKey(account.accountId, atMs);
      const { value, source } = await run((target) => target.get(key));
      return tally(account, value, source, atMs);
    },
  };
}
