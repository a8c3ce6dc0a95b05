import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { ListGroupsCommand, type GroupList } from './schemas.ts';

/**
 * Groups exist while a live key carries their name (section 1): derived, never stored.
 *
 * Read by skipping through the (project_id, group_name, key) index of live keys, one probe per
 * group (a loose index scan: each step asks for the first name after the last one found), not by
 * `select distinct` over every live key: the editor asks for the groups on every page it shows,
 * and a project of 10,000 keys in 50 groups read 10,000 rows for 50 names.
 */
export const listGroups = useCase(ListGroupsCommand, async (deps: Pick<Deps, 'sql'>, { projectId }): Promise<GroupList> => {
  const rows = await deps.sql<{ group_name: string }[]>`
    with recursive g (group_name) as (
      (select group_name from translation_keys
       where project_id = ${projectId} and deleted_at is null
       order by group_name limit 1)
      union all
      select (select k.group_name from translation_keys k
              where k.project_id = ${projectId} and k.deleted_at is null and k.group_name > g.group_name
              order by k.group_name limit 1)
      from g where g.group_name is not null
    )
    select group_name from g where group_name is not null`;
  const groups = rows.map((r) => r.group_name);
  return { project_id: projectId, groups, count: groups.length };
});
