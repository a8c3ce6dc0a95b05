// One page of the editor: the API's listing (core/keys/list-keys.ts: the same search, filters and
// cursor pages as GET /v1/keys, no query of its own) and the values of the chosen languages for the
// keys of that page (core/translations/values-of-keys.ts), with their versions for the inline
// edits' If-Match, and each value's quality warnings against the key's value in the project's
// source language (read in the same values query), and how many comments each shown value has (one
// grouped count for the page), and the glossary terms each key's source text holds (from the
// process's memo of the glossary: core/glossary/glossary-memo.ts), which also judge its values (the
// glossary check). With the "has problems" filter the page's keys come from the quality scan
// instead (core/quality/keys-with-problems.ts), over the same filters.
// docs/portal.md, "How the editor stays fast".
import type { Deps } from '../deps.ts';
import { listKeys } from '../keys/list-keys.ts';
import type { KeyFilter } from '../keys/key-filter.ts';
import { valuesOfKeys, type KeyValue } from '../translations/values-of-keys.ts';
import { warningsOf, type QualityWarning } from '../quality/check-translation.ts';
import { keysWithProblems } from '../quality/keys-with-problems.ts';
import { readForbiddenWords } from '../glossary/forbidden-words.ts';
import type { GlossaryTerm } from '../glossary/schemas.ts';

export const PAGE_SIZE = 50;

export type EditorPageInput = KeyFilter & {
  projectId: string;
  /** The languages shown side by side; the status filter looks at these. */
  languages: string[];
  /** Only keys whose value in this language has a quality warning. */
  problems?: string | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
};
export type EditorValue = KeyValue & { warnings: QualityWarning[] };
export type EditorRow = {
  id: string;
  key: string;
  group_name: string;
  description: string | null;
  /** The key's tags, sorted (core/keys/tags.ts). */
  tags: string[];
  /** The key's character limit, or null (the max_length check; the editor counts against it). */
  max_length: number | null;
  values: Record<string, EditorValue>;
  /**
   * The number of the key's source text (0: none, or written before migration 028): what a save and
   * "Mark up to date" record a value as written against (core/translations/outdated.ts).
   */
  source_rev: number;
  /** Language -> the number of comments on the key's value there (core/comments), for those that have any. */
  comments: Record<string, number>;
  /** Language -> how many of those are not resolved, for those that have any open. */
  open_comments: Record<string, number>;
  /** The glossary terms its source text holds (core/glossary/find-terms.ts: whole words, case as each term says), by spelling. */
  glossary: GlossaryTerm[];
};
export type EditorPage = {
  rows: EditorRow[];
  next: string | null;
  sourceLanguage: string;
  /** With the problems filter: keys looked at for this page, and whether the scan stopped at its bound. */
  scan?: { scanned: number; bounded: boolean };
};

/** The project's source language: quality warnings compare each value with the key's value in it. */
export async function sourceLanguageOf(deps: Pick<Deps, 'sql'>, projectId: string): Promise<string> {
  const [row] = await deps.sql<{ source_language: string }[]>`select source_language from projects where id = ${projectId}`;
  return row?.source_language ?? 'en';
}

/**
 * The source language, and the glossary's version (migration 043) as the page begins: the page's
 * glossary terms come from the process's memo of the glossary at that version or a later one, so a
 * glossary change answered before the page was asked for is on it.
 */
async function pageProject(deps: Pick<Deps, 'sql'>, projectId: string): Promise<{ sourceLanguage: string; glossaryVersion: string }> {
  const [row] = await deps.sql<{ source_language: string; glossary_version: string }[]>`
    select p.source_language, coalesce((select v.version from project_glossary_versions v where v.project_id = p.id), 0)::text as glossary_version
    from projects p where p.id = ${projectId}`;
  return { sourceLanguage: row?.source_language ?? 'en', glossaryVersion: row?.glossary_version ?? '0' };
}

export async function editorPage(deps: Pick<Deps, 'sql' | 'glossaryMemo'>, input: EditorPageInput): Promise<EditorPage> {
  const { projectId, languages } = input;
  const { sourceLanguage, glossaryVersion } = await pageProject(deps, projectId);
  const filter = {
    projectId,
    search: input.search,
    group: input.group,
    tag: input.tag,
    status: input.status,
    language: input.language,
    ...(input.status !== undefined && languages.length > 0 ? { statusLanguages: languages } : {}),
    missing: input.missing,
    outdated: input.outdated,
    open_comments: input.open_comments,
    task: input.task,
    cursor: input.cursor,
  };
  const limit = input.limit ?? PAGE_SIZE;
  let keys: { id: string; key: string; group_name: string; description: string | null; tags: string[]; max_length: number | null }[];
  let next: string | null;
  let scan: EditorPage['scan'];
  if (input.problems !== undefined) {
    const { language: _ignored, ...rest } = filter;
    const found = await keysWithProblems(deps, { ...rest, language: input.problems, sourceLanguage, limit });
    keys = found.keys;
    next = found.next_cursor;
    scan = { scanned: found.scanned, bounded: found.bounded };
  } else {
    const list = await listKeys(deps, { ...filter, language: input.language, limit });
    keys = list.keys;
    next = list.next_cursor ?? null;
  }
  const read = languages.includes(sourceLanguage) ? languages : [...languages, sourceLanguage];
  const keyIds = keys.map((k) => k.id);
  const [values, comments] = await Promise.all([valuesOfKeys(deps, { projectId, keyIds, languages: read }), commentCounts(deps, keyIds, languages)]);
  // The glossary terms in the page's source texts, found in the memo of the glossary (no statement
  // while the glossary has not changed); none looked for on a page without a source text.
  const sources = [...new Set(keys.flatMap((k) => values[k.id]?.[sourceLanguage]?.value || []))];
  const [find, forbidden] = await Promise.all([
    sources.length === 0 ? undefined : deps.glossaryMemo.finder(deps.sql, projectId, glossaryVersion),
    readForbiddenWords(deps.sql, projectId, sourceLanguage),
  ]);
  const glossary = new Map(find ? sources.map((text) => [text, find(text)]) : []);
  const rows = keys.map((k) => {
    const of = values[k.id] ?? {};
    const source = of[sourceLanguage]?.value ?? null;
    const sourceRev = of[sourceLanguage]?.text_rev ?? 0;
    const shown: Record<string, EditorValue> = {};
    for (const l of languages) {
      const value = of[l];
      if (value) shown[l] = { ...value, warnings: warningsOf({ text: value.value, language: l, source, sourceLanguage, maxLength: k.max_length, terms: source === null ? undefined : glossary.get(source), forbidden }) };
    }
    return { id: k.id, key: k.key, group_name: k.group_name, description: k.description, tags: k.tags, max_length: k.max_length, values: shown, source_rev: sourceRev, comments: comments.all[k.id] ?? {}, open_comments: comments.open[k.id] ?? {}, glossary: source === null ? [] : (glossary.get(source) ?? []) };
  });
  return { rows, next, sourceLanguage, ...(scan ? { scan } : {}) };
}

type Counts = Record<string, Record<string, number>>;

/**
 * Key id -> language -> how many comments (`all`), and how many of them are open (`open`), for the
 * page's keys in the shown languages that have any: one grouped query for the page (the slot index
 * value_comments_slot_idx), never one per value.
 */
async function commentCounts(deps: Pick<Deps, 'sql'>, keyIds: string[], languages: string[]): Promise<{ all: Counts; open: Counts }> {
  const all: Counts = {};
  const open: Counts = {};
  if (keyIds.length === 0 || languages.length === 0) return { all, open };
  const rows = await deps.sql<{ key_id: string; language: string; n: number; open: number }[]>`
    select key_id, language, count(*)::int as n, (count(*) filter (where resolved_at is null))::int as open from value_comments
    where key_id = any(${keyIds}::uuid[]) and language = any(${languages}::text[])
    group by 1, 2`;
  for (const r of rows) {
    (all[r.key_id] ??= {})[r.language] = r.n;
    if (r.open > 0) (open[r.key_id] ??= {})[r.language] = r.open;
  }
  return { all, open };
}
