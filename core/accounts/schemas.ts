import * as v from 'valibot';
import { PLANS } from './plans.ts';
import { storableText, Uuid } from '../validation.ts';

export const PlanName = v.picklist(PLANS, `plan must be one of ${PLANS.join(', ')}`);

export const CreateAccountInput = v.strictObject({ name: storableText('name', 200, 1), plan: PlanName });
export type CreateAccountInput = v.InferOutput<typeof CreateAccountInput>;

export const UpdateAccountInput = v.pipe(
  v.strictObject({
    plan: v.optional(PlanName),
    /** Override of the plan's daily API-call limit; null returns to the plan's own. */
    daily_call_limit: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2_000_000_000)))),
  }),
  v.check((b) => b.plan !== undefined || b.daily_call_limit !== undefined, 'give plan and/or daily_call_limit'),
);
export type UpdateAccountInput = v.InferOutput<typeof UpdateAccountInput>;

export const Account = v.object({
  id: Uuid,
  name: v.string(),
  plan: PlanName,
  daily_call_limit: v.nullable(v.number()),
});
export type Account = v.InferOutput<typeof Account>;

export const CreateProjectInput = v.strictObject({ name: storableText('name', 200, 1) });
export type CreateProjectInput = v.InferOutput<typeof CreateProjectInput>;

export const UpdateProjectInput = v.strictObject({ auto_rebuild: v.boolean('auto_rebuild must be a boolean') });
export type UpdateProjectInput = v.InferOutput<typeof UpdateProjectInput>;

export const CreatedApiKey = v.object({ id: Uuid, key: v.string(), project_id: Uuid });
export type CreatedApiKey = v.InferOutput<typeof CreatedApiKey>;

export const CreatedProject = v.object({
  id: Uuid,
  account_id: Uuid,
  name: v.string(),
  auto_rebuild: v.boolean(),
  api_key: v.object({ id: Uuid, key: v.string() }),
});
export type CreatedProject = v.InferOutput<typeof CreatedProject>;

export const Project = v.object({ id: Uuid, account_id: Uuid, name: v.string(), auto_rebuild: v.boolean() });
export type Project = v.InferOutput<typeof Project>;
