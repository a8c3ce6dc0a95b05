import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { ListGroupsCommand, type GroupList } from './schemas.ts';

/** Groups exist while a live key carries their name (section 1): derived, never stored. */
export const listGroups = useCase(ListGroupsCommand, async (deps: Pick<Deps, 'sql'>, { projectId }): Promise<GroupList> => {
  const rows = await deps.sql<{ group_name: string }[]>`
    select distinct group_name from translation_keys
    where project_id = ${projectId} and deleted_at is null
    order by group_name`;
  const groups = rows.map((r) => r.group_name);
  return { project_id: projectId, groups, count: groups.length };
});
