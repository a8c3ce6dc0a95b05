// Plan limits (section 8 of the spec, and our choices where it is silent: docs/decisions.md).
// null means unlimited, for every limit: code that enforces a limit skips it when it is null.
//
// `unlimited` is for self-hosted servers, where plans are a hosting concept: the operator's own
// account (the portal's setup offers it) has no limit at all. It is a plan like the others, so the
// admin API accepts it and nothing outside this table needs to know about it.

export const PLANS = ['free', 'solo', 'team', 'business', 'unlimited'] as const;
export type Plan = (typeof PLANS)[number];

export type PlanLimits = {
  projects: number | null;
  keysPerProject: number | null;
  languagesPerProject: number | null;
  dailyApiCalls: number | null;
  /** Translation units per billing cycle (a calendar month, UTC); refused beyond twice this. */
  translationUnitsPerMonth: number | null;
};

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { projects: 1, keysPerProject: 250, languagesPerProject: 2, dailyApiCalls: 5_000, translationUnitsPerMonth: 1_000 },
  solo: { projects: 3, keysPerProject: 2_500, languagesPerProject: null, dailyApiCalls: 50_000, translationUnitsPerMonth: 10_000 },
  team: { projects: 25, keysPerProject: null, languagesPerProject: null, dailyApiCalls: 500_000, translationUnitsPerMonth: 100_000 },
  business: { projects: null, keysPerProject: null, languagesPerProject: null, dailyApiCalls: 5_000_000, translationUnitsPerMonth: 1_000_000 },
  unlimited: { projects: null, keysPerProject: null, languagesPerProject: null, dailyApiCalls: null, translationUnitsPerMonth: null },
};
