// Plan limits (section 8 of the spec, and our choices where it is silent: docs/decisions.md).
// null means unlimited.

export const PLANS = ['free', 'solo', 'team', 'business'] as const;
export type Plan = (typeof PLANS)[number];

export type PlanLimits = {
  projects: number | null;
  keysPerProject: number | null;
  languagesPerProject: number | null;
  dailyApiCalls: number;
  /** Translation units per billing cycle (a calendar month, UTC); refused beyond twice this. */
  translationUnitsPerMonth: number;
};

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { projects: 1, keysPerProject: 250, languagesPerProject: 2, dailyApiCalls: 5_000, translationUnitsPerMonth: 1_000 },
  solo: { projects: 3, keysPerProject: 2_500, languagesPerProject: null, dailyApiCalls: 50_000, translationUnitsPerMonth: 10_000 },
  team: { projects: 25, keysPerProject: null, languagesPerProject: null, dailyApiCalls: 500_000, translationUnitsPerMonth: 100_000 },
  business: { projects: null, keysPerProject: null, languagesPerProject: null, dailyApiCalls: 5_000_000, translationUnitsPerMonth: 1_000_000 },
};
