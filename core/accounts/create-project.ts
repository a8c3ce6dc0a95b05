import type { Deps } from '../deps.ts';
import { notFound, planLimit } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { PLAN_LIMITS, type Plan } from './plans.ts';
import { insertApiKey } from './create-api-key.ts';
import { CreateProjectCommand, type CreatedProject } from './schemas.ts';

/** Creates a project and its first API key in one transaction. */
export const createProject = useCase(CreateProjectCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<CreatedProject> =>
  transaction(deps, async (tx) => {
    const { accountId } = input;
    // The row lock serializes concurrent creations for one account, so the limit holds exactly.
    const [account] = await tx.sql<{ plan: Plan }[]>`select plan from accounts where id = ${accountId} for update`;
    if (!account) throw notFound('Account not found');
    const limit = PLAN_LIMITS[account.plan].projects;
    if (limit !== null) {
      const [row] = await tx.sql<{ count: number }[]>`
        select count(*)::int as count from projects where account_id = ${accountId}`;
      if (row!.count >= limit) {
        throw planLimit(
          `Project limit reached: the ${account.plan} plan allows ${limit} project${limit === 1 ? '' : 's'}. Upgrade the plan to create more.`,
          { resource: 'projects', plan: account.plan, limit, current: row!.count, adding: 1 },
        );
      }
    }
    const [project] = await tx.sql<{ id: string; name: string; auto_rebuild: boolean; fallbacks: Record<string, string[]>; source_language: string; quality_blocking: string[] }[]>`
      insert into projects (account_id, name) values (${accountId}, ${input.name}) returning id, name, auto_rebuild, fallbacks, source_language, quality_blocking`;
    tx.record({ type: 'project.created', projectId: project!.id, accountId, actor: input.actor, entity: { type: 'project', id: project!.id }, after: project });
    const apiKey = await insertApiKey(tx, project!.id, input.actor);
    return {
      id: project!.id,
      account_id: accountId,
      name: project!.name,
      auto_rebuild: project!.auto_rebuild,
      fallbacks: project!.fallbacks,
      source_language: project!.source_language,
      quality_blocking: project!.quality_blocking,
      api_key: { id: apiKey.id, key: apiKey.key },
    };
  }),
);
