// Reading `EXPLAIN (ANALYZE, FORMAT JSON)` output: how many rows a plan really touched, and which
// indexes it scanned, for the tests that hold statements to plans linear without statistics.
import { addLanguage } from '../../../core/languages/add-language.ts';
import type { CoreHarness, CoreProject } from './core-harness.ts';

export type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
};

/** Rows every node of an executed plan produced or threw away, over all its loops. */
export function rowsTouched(node: PlanNode): number {
  const own =
    (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * node['Actual Loops'] +
    (node['Rows Removed by Join Filter'] ?? 0);
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsTouched(child), 0);
}

/** One line per node that reads a table: enough to see which index a failing plan took. */
export const scans = (node: PlanNode): string[] => [
  ...(node['Relation Name']
    ? [`${node['Node Type']}${node['Index Name'] ? ` using ${node['Index Name']}` : ''} on ${node['Relation Name']}: ${node['Actual Rows']} rows, ${node['Rows Removed by Filter'] ?? 0} filtered out`]
    : []),
  ...(node.Plans ?? []).flatMap(scans),
];

/**
 * A project of `keys` keys in 10 groups with an approved value in de, en and fr, loaded in one
 * statement straight after the tables were last seen small: the planner's picture (no statistics,
 * or a tiny table's) is the one a freshly seeded project meets.
 */
export async function bulkLoadedProject(core: CoreHarness, keys: number): Promise<CoreProject> {
  const { deps } = core;
  const p = await core.newProject('business');
  for (const code of ['de', 'en', 'fr']) await addLanguage(deps, { projectId: p.projectId, code, actor: p.actor });
  await deps.sql`
    with created as (
      insert into translation_keys (project_id, key, group_name)
      select ${p.projectId}, 'g' || (n % 10) || '.k' || n, 'g' || (n % 10) from generate_series(1, ${keys}::int) as n
      returning id)
    insert into translations (key_id, project_id, language, value, status)
    select c.id, ${p.projectId}, l, 'v', 'approved' from created c cross join unnest(array['de', 'en', 'fr']) as l`;
  return p;
}
