// Which live keys of a project a listing, a bulk action or the portal's editor means: one filter,
// one SQL fragment, so that "the keys I see" and "the keys a bulk action over this filter changes"
// can never disagree. docs/decisions.md, "Keys API: search, filters, pagination, bulk, versions".
import * as v from 'valibot';
import type postgres from 'postgres';
import type { Sql, TransactionSql } from '../db/client.ts';
import { mayNameGroup, nfc, storableText } from '../validation.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { TranslationStatus } from '../translations/schemas.ts';
import { outdatedInSql } from '../translations/outdated.ts';
import { mayNameTag, TagLookup } from './tags.ts';
import { TaskNumber } from '../tasks/task-number.ts';

export const SEARCH_MAX = 200;

/** The filter's fields, shared by the listing's query string, the bulk bodies and the editor. */
export const KeyFilterFields = {
  /** Case-insensitive substring of the key name or of any of its values' text; blank means no search. */
  search: v.optional(v.pipe(storableText('search', SEARCH_MAX), v.trim())),
  /** Exact group name; a name that could never be a group matches no key. */
  group: v.optional(v.pipe(v.string('group must be given once'), v.maxLength(1_000, 'group is at most 1,000 characters'))),
  /** Keys with this tag (exact, case kept); a text that could never be a tag matches no key. */
  tag: v.optional(TagLookup),
  /** Keys with a value of this status (in `language` when given, else in any language). */
  status: v.optional(TranslationStatus),
  /** Keys with a value in this language (of `status` when given). */
  language: v.optional(LanguageCode),
  /** Keys without any value in this language. */
  missing: v.optional(LanguageCode),
  /** Keys whose value in this language is older than their source text (core/translations/outdated.ts). */
  outdated: v.optional(LanguageCode),
  /** Keys with a comment in this language that is not resolved (core/comments/resolve-comment.ts). */
  open_comments: v.optional(LanguageCode),
  /** The live keys of this task (its number in the project: core/tasks); a number no task has matches no key. */
  task: v.optional(TaskNumber),
} as const;

export const KeyFilter = v.pipe(
  // An array is an object to valibot's object schemas: `"filter": []` read as a filter with no
  // fields, every key of the project, and a bulk delete deleted them all. Refused here first.
  v.unknown(),
  v.check((f) => typeof f === 'object' && f !== null && !Array.isArray(f), 'filter must be an object'),
  v.strictObject(KeyFilterFields),
  // In a listing's query string an empty group or search means "no filter" (the editor's "all
  // groups"); in a bulk body it read the same, and `{"group": ""}` deleted every key of the project.
  // A field given must filter: omit it to mean every key.
  v.forward(v.check((f) => f.group !== '', 'group must not be empty: leave it out to mean every group'), ['group']),
  v.forward(v.check((f) => f.search !== '', 'search must not be blank: leave it out to mean every key'), ['search']),
  v.forward(v.check((f) => f.tag !== '', 'tag must not be empty: leave it out to mean every key'), ['tag']),
);
export type KeyFilter = v.InferOutput<typeof KeyFilter>;

// LIKE treats %, _ and \ specially: a search for "50%" means those characters. Folded with
// Postgres' lower() (in the query), the same function that folded the stored values.
export const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%`;

type AnySql = Sql | TransactionSql;

/**
 * The conditions on `k` (translation_keys) beyond "live key of the project", as one fragment.
 * `statusLanguages` widens `language` to several (the editor's shown languages).
 *
 * Search is a case-insensitive substring, without a trigram index: pg_trgm is there (translation
 * memory needs it), but an index over every value would slow every write and stop value updates
 * from being HOT, for a search that reads one project. The plan stays linear in the project's size
 * instead: key names are checked on the rows the (project_id, key) index yields, and values are
 * scanned once per query into a hashed set of key ids (the `in (select ...)` below), never probed
 * once per key, as a plain LIKE over value_folded and key_folded, the text folded when it was
 * written (migrations 010 and 023: NFC, lower case, ß as ss, ς as σ), the search folded alike. docs/portal.md, "How the editor stays fast", has the timings.
 */
export function keyFilterSql(sql: AnySql, projectId: string, filter: KeyFilter & { statusLanguages?: string[] | undefined }): postgres.Fragment {
  const parts: postgres.Fragment[] = [];
  if (filter.group !== undefined && filter.group !== '') {
    // A filter that could never be a group name (NUL, bad characters, too long) matches no key;
    // names are stored in NFC, and the filter names the group in any form (core/validation.ts).
    const group = nfc(filter.group);
    parts.push(mayNameGroup(group) ? sql`and k.group_name = ${group}` : sql`and false`);
  }
  if (filter.tag !== undefined && filter.tag !== '') {
    // Containment over the key row already read (no index: migration 031 says why).
    parts.push(mayNameTag(filter.tag) ? sql`and k.tags @> array[${filter.tag}]::text[]` : sql`and false`);
  }
  if (filter.search) {
    const pattern = likePattern(filter.search);
    // Folded as the stored columns are (migration 023: NFC, lower case, ß as ss, ς as σ).
    parts.push(sql`and (k.key_folded like tms_search_fold(${pattern}) or k.id in (
      select t.key_id from translations t where t.project_id = ${projectId} and t.value_folded like tms_search_fold(${pattern})))`);
  }
  const languages = filter.statusLanguages ?? (filter.language === undefined ? undefined : [filter.language]);
  if (filter.status !== undefined || languages !== undefined) {
    // A key's values are reached through the primary key (key_id[, language]) only. The status is
    // compared with IS NOT DISTINCT FROM (the same as = here: neither side is ever null), which no
    // index serves but which the planner estimates as =: with a plain `t.status = ...`, a planner
    // without statistics (which takes every index for empty) read translations_project_language_idx
    // on (language, status), its second and third columns, once per key, whole: a status filter on
    // 10,000 keys took 9.3 s. With statistics it still chooses a hash join when that is cheaper.
    parts.push(sql`and exists (
      select 1 from translations t where t.key_id = k.id
        ${languages === undefined ? sql`` : sql`and t.language = any(${languages}::text[])`}
        ${filter.status === undefined ? sql`` : sql`and t.status is not distinct from ${filter.status}`})`);
  }
  if (filter.missing !== undefined) {
    parts.push(sql`and not exists (select 1 from translations t where t.key_id = k.id and t.language = ${filter.missing})`);
  }
  if (filter.outdated !== undefined) parts.push(sql`and ${outdatedInSql(sql, projectId, filter.outdated)}`);
  if (filter.open_comments !== undefined) {
    // The open comments' partial index (migration 034): a project's open comments are few.
    parts.push(sql`and k.id in (
      select c.key_id from value_comments c where c.project_id = ${projectId} and c.language = ${filter.open_comments} and c.resolved_at is null)`);
  }
  if (filter.task !== undefined) {
    // A task's keys by its (project, number) index and their primary key.
    parts.push(sql`and k.id in (
      select tk.key_id from tasks ta join task_keys tk on tk.task_id = ta.id where ta.project_id = ${projectId} and ta.number = ${filter.task})`);
  }
  return parts.reduce((all, part) => sql`${all} ${part}`, sql``);
}
