// How many screenshots show each of some keys: the editor's indicator beside a key's name, for the
// keys of one page in one grouped statement (the key index of screenshot_keys), never one per key.
import type { Deps } from '../deps.ts';

/** Key id -> the number of screenshots linked to it, for the keys that have any. */
export async function screenshotCounts(deps: Pick<Deps, 'sql'>, input: { projectId: string; keyIds: readonly string[] }): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  if (input.keyIds.length === 0) return counts;
  const rows = await deps.sql<{ key_id: string; n: number }[]>`
    select key_id, count(*)::int as n from screenshot_keys
    where key_id = any(${[...input.keyIds]}::uuid[]) and project_id = ${input.projectId}
    group by key_id`;
  for (const r of rows) counts[r.key_id] = r.n;
  return counts;
}
