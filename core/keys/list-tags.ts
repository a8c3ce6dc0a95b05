import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { InProject } from '../commands.ts';

export const ListTagsCommand = v.object({ ...InProject });

export const TagList = v.object({
  project_id: v.string(),
  /** Every tag a live key of the project has, in name order, with how many live keys have it. */
  tags: v.array(v.object({ name: v.string(), keys: v.number() })),
});
export type TagList = v.InferOutput<typeof TagList>;

/**
 * The project's tags and their live keys: what the editor's tag filter offers and what a client
 * lists before filtering. One pass over the project's live keys (no index on tags: migration 031).
 */
export const listTags = useCase(ListTagsCommand, async (deps: Pick<Deps, 'sql'>, { projectId }): Promise<TagList> => {
  const rows = await deps.sql<{ name: string; keys: number }[]>`
    select t.name, count(*)::int as keys
    from translation_keys k, unnest(k.tags) as t(name)
    where k.project_id = ${projectId} and k.deleted_at is null and cardinality(k.tags) > 0
    group by t.name
    order by t.name collate "C"`;
  return { project_id: projectId, tags: rows };
});
