import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { UpdateProjectCommand, type Project } from './schemas.ts';

export const updateProject = useCase(UpdateProjectCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<Project> =>
  transaction(deps, async (tx) => {
    const [before] = await tx.sql<{ auto_rebuild: boolean }[]>`
      select auto_rebuild from projects where id = ${input.projectId} for update`;
    if (!before) throw notFound('Project not found');
    const [row] = await tx.sql<Project[]>`
      update projects set auto_rebuild = ${input.auto_rebuild} where id = ${input.projectId}
      returning id, account_id, name, auto_rebuild`;
    tx.record({
      type: 'project.updated',
      projectId: input.projectId,
      actor: input.actor,
      entity: { type: 'project', id: input.projectId },
      before,
      after: { auto_rebuild: row!.auto_rebuild },
    });
    return row!;
  }),
);
