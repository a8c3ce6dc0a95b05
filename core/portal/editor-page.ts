// One page of the editor: live keys in name order, filtered and searched in Postgres, with the values
// of the chosen languages. Keyset pagination (`after` = the last key name shown) walks the
// (project_id, key) index of live keys, so page 400 of a 10,000-key project costs what page 1 does;
// no OFFSET, no count of everything. docs/portal.md, "How the editor stays fast".
import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { InProject } from '../commands.ts';
import { useCase } from '../use-case.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { TranslationStatus } from '../translations/schemas.ts';

export const PAGE_SIZE = 50;

export const EditorPageCommand = v.object({
  ...InProject,
  languages: v.pipe(v.array(LanguageCode), v.maxLength(10, 'choose at most 10 languages side by side')),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'search is at most 200 characters'))),
  group: v.optional(v.pipe(v.string(), v.maxLength(200))),
  /** Keys with a value of this status in one of the chosen languages. */
  status: v.optional(TranslationStatus),
  /** Keys without a value in this language. */
  missing: v.optional(LanguageCode),
  after: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200)), PAGE_SIZE),
});

export type EditorValue = { value: string; status: TranslationStatus; updated_at: string };
export type EditorRow = { id: string; key: string; group_name: string; description: string | null; values: Record<string, EditorValue> };
export type EditorPage = { rows: EditorRow[]; next: string | null };

// ILIKE treats % and _ as wildcards: a search for "50%" means those characters.
const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%`;

export const editorPage = useCase(EditorPageCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<EditorPage> => {
  const { sql } = deps;
  const { projectId, languages, limit } = input;
  const pattern = input.search ? likePattern(input.search) : undefined;
  const keys = await sql<{ id: string; key: string; group_name: string; description: string | null }[]>`
    select k.id, k.key, k.group_name, k.description
    from translation_keys k
    where k.project_id = ${projectId} and k.deleted_at is null
      ${input.after === undefined ? sql`` : sql`and k.key > ${input.after}`}
      ${input.group === undefined || input.group === '' ? sql`` : sql`and k.group_name = ${input.group}`}
      ${pattern === undefined
        ? sql``
        : sql`and (k.key ilike ${pattern} or exists (
            select 1 from translations t where t.key_id = k.id and t.project_id = ${projectId} and t.value ilike ${pattern}))`}
      ${input.status === undefined || languages.length === 0
        ? sql``
        : sql`and exists (select 1 from translations t where t.key_id = k.id and t.language = any(${languages}) and t.status = ${input.status})`}
      ${input.missing === undefined
        ? sql``
        : sql`and not exists (select 1 from translations t where t.key_id = k.id and t.language = ${input.missing})`}
    order by k.key
    limit ${limit + 1}`;
  const page = keys.slice(0, limit);
  const rows: EditorRow[] = page.map((k) => ({ ...k, values: {} }));
  if (page.length > 0 && languages.length > 0) {
    const byId = new Map(rows.map((r) => [r.id, r]));
    const values = await sql<{ key_id: string; language: string; value: string; status: TranslationStatus; updated_at: Date }[]>`
      select key_id, language, value, status, updated_at from translations
      where project_id = ${projectId} and key_id = any(${page.map((k) => k.id)}::uuid[]) and language = any(${languages})`;
    for (const v of values) byId.get(v.key_id)!.values[v.language] = { value: v.value, status: v.status, updated_at: new Date(v.updated_at).toISOString() };
  }
  return { rows, next: keys.length > limit ? page.at(-1)!.key : null };
});

/** The project's group names, for the group filter. */
export async function groupNames(deps: Pick<Deps, 'sql'>, projectId: string): Promise<string[]> {
  const rows = await deps.sql<{ group_name: string }[]>`
    select distinct group_name from translation_keys where project_id = ${projectId} and deleted_at is null order by group_name`;
  return rows.map((r) => r.group_name);
}
