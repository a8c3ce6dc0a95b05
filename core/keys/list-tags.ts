import * as v from 'valibot';
import type { LiveBody } from '../translations/live-memo.ts';
import { liveRead, type LiveReadDeps } from '../translations/live-read.ts';
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
 * lists before filtering. One pass over the project's live keys (no index on tags: migration 031),
 * made again only when the project's content version has moved (core/translations/live-read.ts):
 * a tag is changed only with its key, and every write of a key raises the version.
 */
export const readTagList = useCase(ListTagsCommand, async (deps: LiveReadDeps, { projectId }): Promise<LiveBody> =>
  liveRead<{ name: string | null; keys: number | null }>(
    deps,
    projectId,
    `${projectId} tags`,
    (fresh) => deps.sql`
      select t.name, count(*)::int as keys
      from translation_keys k, unnest(k.tags) as t(name)
      where ${fresh} and k.project_id = ${projectId} and k.deleted_at is null and cardinality(k.tags) > 0
      group by t.name
      order by t.name collate "C"`,
    // The version comes as a row of its own when the project has no tag (the lateral join's nulls).
    (rows) => JSON.stringify({ project_id: projectId, tags: rows.flatMap((r) => (r.name === null ? [] : [{ name: r.name, keys: r.keys ?? 0 }])) } satisfies TagList),
  ),
);

const decoder = new TextDecoder();

/** The same list as an object, for the portal's pages. */
export const listTags = async (deps: LiveReadDeps, input: { projectId: string }): Promise<TagList> =>
  JSON.parse(decoder.decode((await readTagList(deps, input)).body)) as TagList;
