import type { Deps } from '../deps.ts';
import { notFound, validationError } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { fallbackIssues, type Fallbacks } from '../projects/fallbacks.ts';
import { UpdateProjectCommand, type Project } from './schemas.ts';

export const updateProject = useCase(UpdateProjectCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<Project> =>
  transaction(deps, async (tx) => {
    const [before] = await tx.sql<{ auto_rebuild: boolean; fallbacks: Fallbacks }[]>`
      select auto_rebuild, fallbacks from projects where id = ${input.projectId} for update`;
    if (!before) throw notFound('Project not found');
    if (input.fallbacks !== undefined) {
      // Checked against the languages as they are in this transaction: a language removed
      // concurrently waits for the project row (remove-language locks it too) and is seen here.
      const rows = await tx.sql<{ code: string }[]>`select code from project_languages where project_id = ${input.projectId}`;
      const issues = fallbackIssues(input.fallbacks, new Set(rows.map((r) => r.code)), ['body', 'fallbacks']);
      if (issues.length) throw validationError(issues);
    }
    const fallbacks = input.fallbacks === undefined ? null : JSON.stringify(input.fallbacks);
    const [row] = await tx.sql<Project[]>`
      update projects set
        auto_rebuild = coalesce(${input.auto_rebuild ?? null}::boolean, auto_rebuild),
        fallbacks = coalesce(${fallbacks}::text::jsonb, fallbacks)
      where id = ${input.projectId}
      returning id, account_id, name, auto_rebuild, fallbacks`;
    const changed = (name: 'auto_rebuild' | 'fallbacks') => input[name] !== undefined;
    tx.record({
      type: 'project.updated',
      projectId: input.projectId,
      actor: input.actor,
      entity: { type: 'project', id: input.projectId },
      before: { ...(changed('auto_rebuild') ? { auto_rebuild: before.auto_rebuild } : {}), ...(changed('fallbacks') ? { fallbacks: before.fallbacks } : {}) },
      after: { ...(changed('auto_rebuild') ? { auto_rebuild: row!.auto_rebuild } : {}), ...(changed('fallbacks') ? { fallbacks: row!.fallbacks } : {}) },
    });
    return row!;
  }),
);
