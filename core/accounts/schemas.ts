import * as v from 'valibot';
import { PLANS } from './plans.ts';
import { labelText, Uuid } from '../validation.ts';
import { Actor } from '../actor.ts';
import { Fallbacks } from '../projects/fallbacks.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { QUALITY_CHECKS } from '../quality/check-translation.ts';

export const PlanName = v.picklist(PLANS, `plan must be one of ${PLANS.join(', ')}`);

export const CreateAccountInput = v.strictObject({ name: labelText('name', 200), plan: PlanName });
export type CreateAccountInput = v.InferOutput<typeof CreateAccountInput>;

const UpdateAccountFields = {
  plan: v.optional(PlanName),
  /** Override of the plan's daily API-call limit; null returns to the plan's own. */
  daily_call_limit: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2_000_000_000)))),
  /** Override of the plan's monthly translation units; null returns to the plan's own. */
  translation_unit_allowance: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1_000_000_000)))),
};
const someAccountChange = <T extends { plan?: unknown; daily_call_limit?: unknown; translation_unit_allowance?: unknown }>() =>
  v.check<T, string>(
    (b) => b.plan !== undefined || b.daily_call_limit !== undefined || b.translation_unit_allowance !== undefined,
    'give plan, daily_call_limit and/or translation_unit_allowance',
  );
export const UpdateAccountInput = v.pipe(v.strictObject(UpdateAccountFields), someAccountChange());
export type UpdateAccountInput = v.InferOutput<typeof UpdateAccountInput>;

export const Account = v.object({
  id: Uuid,
  name: v.string(),
  plan: PlanName,
  daily_call_limit: v.nullable(v.number()),
  translation_unit_allowance: v.nullable(v.number()),
});
export type Account = v.InferOutput<typeof Account>;

export const CreateProjectInput = v.strictObject({ name: labelText('name', 200) });
export type CreateProjectInput = v.InferOutput<typeof CreateProjectInput>;

/** The checks of core/quality/check-translation.ts, each at most once, in any order. */
export const QualityBlocking = v.pipe(
  v.array(v.picklist(QUALITY_CHECKS, `quality_blocking lists checks among ${QUALITY_CHECKS.join(', ')}`), 'quality_blocking must be a list of check names'),
  v.maxLength(QUALITY_CHECKS.length, `quality_blocking lists at most ${QUALITY_CHECKS.length} checks`),
  v.transform((checks) => [...new Set(checks)].sort()),
);

const UpdateProjectFields = {
  auto_rebuild: v.optional(v.boolean('auto_rebuild must be a boolean')),
  /** Replaces the whole setting; {} removes every chain (core/projects/fallbacks.ts). */
  fallbacks: v.optional(Fallbacks),
  /** The language translation memory and machine translation translate from (a registered one). */
  source_language: v.optional(LanguageCode),
  /** Quality checks whose warnings make an approval a 422 (docs/quality.md); [] lets every check only warn. */
  quality_blocking: v.optional(QualityBlocking),
};
const someProjectChange = <T extends { auto_rebuild?: unknown; fallbacks?: unknown; source_language?: unknown; quality_blocking?: unknown }>() =>
  v.check<T, string>(
    (b) => b.auto_rebuild !== undefined || b.fallbacks !== undefined || b.source_language !== undefined || b.quality_blocking !== undefined,
    'give auto_rebuild, fallbacks, source_language and/or quality_blocking',
  );
export const UpdateProjectInput = v.pipe(v.strictObject(UpdateProjectFields), someProjectChange());
export type UpdateProjectInput = v.InferOutput<typeof UpdateProjectInput>;


export const CreatedProject = v.object({
  id: Uuid,
  account_id: Uuid,
  name: v.string(),
  auto_rebuild: v.boolean(),
  fallbacks: v.record(v.string(), v.array(v.string())),
  source_language: v.string(),
  quality_blocking: v.array(v.string()),
  api_key: v.object({ id: Uuid, key: v.string() }),
});
export type CreatedProject = v.InferOutput<typeof CreatedProject>;

export const Project = v.object({
  id: Uuid,
  account_id: Uuid,
  name: v.string(),
  auto_rebuild: v.boolean(),
  /** Language -> its fallback chain (core/projects/fallbacks.ts); {} when none. */
  fallbacks: v.record(v.string(), v.array(v.string())),
  /** What translation memory and machine translation translate from (default en). */
  source_language: v.string(),
  /** Quality checks that block approval (docs/quality.md); [] by default. */
  quality_blocking: v.array(v.string()),
});
export type Project = v.InferOutput<typeof Project>;

// Use-case inputs: the HTTP body's fields, the account or project acted on, and who acts.
export const CreateAccountCommand = v.object({ actor: Actor, ...CreateAccountInput.entries });
export const UpdateAccountCommand = v.pipe(v.object({ actor: Actor, accountId: Uuid, ...UpdateAccountFields }), someAccountChange());
export const CreateProjectCommand = v.object({ actor: Actor, accountId: Uuid, ...CreateProjectInput.entries });
export const UpdateProjectCommand = v.pipe(v.object({ actor: Actor, projectId: Uuid, ...UpdateProjectFields }), someProjectChange());
export const RevokeApiKeyCommand = v.object({ actor: Actor, apiKeyId: Uuid });
