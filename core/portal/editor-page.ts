// One page of the editor: the API's listing (core/keys/list-keys.ts: the same search, filters and
// cursor pages as GET /v1/keys, no query of its own) and the values of the chosen languages for the
// keys of that page (core/translations/values-of-keys.ts), with their versions for the inline
// edits' If-Match. docs/portal.md, "How the editor stays fast".
import type { Deps } from '../deps.ts';
import { listKeys } from '../keys/list-keys.ts';
import type { KeyFilter } from '../keys/key-filter.ts';
import { valuesOfKeys, type KeyValue } from '../translations/values-of-keys.ts';

export const PAGE_SIZE = 50;

export type EditorPageInput = KeyFilter & {
  projectId: string;
  /** The languages shown side by side; the status filter looks at these. */
  languages: string[];
  cursor?: string | undefined;
  limit?: number | undefined;
};
export type EditorValue = KeyValue;
export type EditorRow = { id: string; key: string; group_name: string; description: string | null; values: Record<string, EditorValue> };
export type EditorPage = { rows: EditorRow[]; next: string | null };

export async function editorPage(deps: Pick<Deps, 'sql'>, input: EditorPageInput): Promise<EditorPage> {
  const { projectId, languages } = input;
  const list = await listKeys(deps, {
    projectId,
    search: input.search,
    group: input.group,
    status: input.status,
    language: input.language,
    ...(input.status !== undefined && languages.length > 0 ? { statusLanguages: languages } : {}),
    missing: input.missing,
    cursor: input.cursor,
    limit: input.limit ?? PAGE_SIZE,
  });
  const values = await valuesOfKeys(deps, { projectId, keyIds: list.keys.map((k) => k.id), languages });
  return {
    rows: list.keys.map((k) => ({ id: k.id, key: k.key, group_name: k.group_name, description: k.description, values: values[k.id] ?? {} })),
    next: list.next_cursor ?? null,
  };
}
