import type { Deps } from '../deps.ts';
import { notFound, planLimit } from '../errors.ts';
import { PLAN_LIMITS, type Plan } from './plans.ts';
import { insertApiKey } from './create-api-key.ts';
import type { CreatedProject, CreateProjectInput } from './schemas.ts';

/** Creates a project and its first API key in one transaction. */
export async function createProject(
  deps: Pick<Deps, 'sql'>,
  accountId: string,
  input: CreateProjectInput,
): Promise<CreatedProject> {
  return deps.sql.begin(async (tx) => {
    // The row lock serializes concurrent creations for one account, so the limit holds exactly.
    const [account] = await tx<{ plan: Plan }[]>`select plan from accounts where id = ${accountId} for update`;
    if (!account) throw notFound('Account not found');
    const limit = PLAN_LIMITS[account.plan].projects;
    if (limit !== null) {
      const [row] = await tx<{ count: number }[]>`
        select count(*)::int as count from projects where account_id = ${accountId}`;
      if (row!.count >= limit) {
        throw planLimit(
          `Project limit reached: the ${account.plan} plan allows ${limit} project${limit === 1 ? '' : 's'}. Upgrade the plan to create more.`,
        );
      }
    }
    const [project] = await tx<{ id: string; name: string; auto_rebuild: boolean }[]>`
      insert into projects (account_id, name) values (${accountId}, ${input.name}) returning id, name, auto_rebuild`;
    const apiKey = await insertApiKey(tx, project!.id);
    return {
      id: project!.id,
      account_id: accountId,
      name: project!.name,
      auto_rebuild: project!.auto_rebuild,
      api_key: { id: apiKey.id, key: apiKey.key },
    };
  });
}
