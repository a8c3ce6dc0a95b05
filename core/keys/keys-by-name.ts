// Live keys of a project found by the names people know them by: a form that names keys as typed
// (the portal's Screenshots tab links a screenshot to "auth.sign_in", not to a UUID). A line is a
// key's name, or its group and name as the editor shows them ("auth/sign_in"); key names are unique
// in a project, so the name alone is enough. One statement over the live-name index, whatever the
// number of lines: every reading of a line is a candidate name, and the match is picked here.
import type { Deps } from '../deps.ts';
import { nfc } from '../validation.ts';

export type NamedKey = { id: string; key: string; group_name: string };

/**
 * The keys the lines name, in the lines' order (each key once), and the lines that name no live key
 * of the project (trimmed, NFC, as typed otherwise). Blank lines are none. A line that is a key's
 * exact name is that key, even when it also reads as "group/name".
 */
export async function keysByName(deps: Pick<Deps, 'sql'>, input: { projectId: string; lines: readonly string[] }): Promise<{ found: NamedKey[]; unknown: string[] }> {
  const lines = [...new Set(input.lines.map((l) => nfc(l.trim())).filter((l) => l !== ''))];
  if (lines.length === 0) return { found: [], unknown: [] };
  // "a/b/c" may be key "a/b/c", key "b/c" of group "a", or key "c" of group "a/b".
  const candidates = [...new Set(lines.flatMap((line) => [line, ...[...line.matchAll(/\//g)].map((m) => line.slice(m.index + 1))]))].filter((n) => n !== '');
  const rows = await deps.sql<NamedKey[]>`
    select id, key, group_name from translation_keys
    where project_id = ${input.projectId} and deleted_at is null and key = any(${candidates}::text[])`;
  const byName = new Map(rows.map((r) => [r.key, r]));
  const found = new Map<string, NamedKey>();
  const unknown: string[] = [];
  for (const line of lines) {
    const key = byName.get(line) ?? rows.find((r) => `${r.group_name}/${r.key}` === line);
    if (key) found.set(key.id, key);
    else unknown.push(line);
  }
  return { found: [...found.values()], unknown };
}
