// Exports one language as a file in any supported format: the live values of the project's live
// keys (approved by default, as live reads), in key order, serialized by the format's codec. The
// bytes are deterministic for the same data, so their hash is a strong ETag and a client pulling
// twice writes the same file (no diff in git).
import { createHash } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { validationError } from '../errors.ts';
import { useCase } from '../use-case.ts';
import { mayNameGroup } from '../validation.ts';
import { languageNotRegistered } from '../languages/remove-language.ts';
import { FORMATS, FormatError } from '../formats/index.ts';
import type { Entry } from '../formats/types.ts';
import { hasPlural } from '../formats/plural/icu-plural.ts';
import type { Sql } from '../db/client.ts';
import type { StatusFilter } from '../translations/schemas.ts';
import { ExportCommand } from './schemas.ts';
import { mayNameTag } from '../keys/tags.ts';
import { pseudoFile } from './pseudo-localize.ts';

/** How many of a file's refused entries an export's 422 names (then "and N more"). */
const REFUSALS_LISTED = 100;

export type ExportedFile = { body: Uint8Array; etag: string; contentType: string; filename: string };

async function registered(sql: Sql, projectId: string, language: string): Promise<boolean> {
  const [row] = await sql`select 1 from project_languages where project_id = ${projectId} and code = ${language}`;
  return row !== undefined;
}

/**
 * The shapes of the live reads, which stay linear without statistics (docs/decisions.md, "No cliff
 * without statistics"): a whole language finds its values by (project_id, language) and their keys
 * only through translation_keys' primary key (core/translations/read-language.ts); one group finds
 * its keys by (project_id, group_name) and each key's value by its primary key, fenced with OFFSET 0
 * (core/keys/by-id.ts): joined plainly, the value's status and language let the planner read them
 * from translations_project_language_idx instead. A key is in the project because its value is.
 * The former join named the project on both tables, and an unanalyzed planner scanned the
 * language's values once per key (a 10,000-key export: 7.8-12.7 s, one group of 500 keys: 0.8 s).
 */
async function entriesOf(sql: Sql, projectId: string, languages: string[], status: StatusFilter, group: string | undefined, tag: string | undefined): Promise<StatusedEntry[]> {
  const passes = status === 'all' ? sql`` : sql`and t.status = ${status}`;
  // Containment over the key row already read, as the key listing filters (core/keys/key-filter.ts).
  const tagged = tag === undefined ? sql`` : sql`and k.tags @> array[${tag}]::text[]`;
  return group === undefined
    ? sql<StatusedEntry[]>`
        select k.key, t.language, t.value, t.status, k.description, k.group_name as group, k.max_length as "maxLength"
        from translations t join translation_keys k on k.id = t.key_id
        where t.project_id = ${projectId} and t.language = any(${languages}::text[]) and k.deleted_at is null ${passes} ${tagged}
        order by k.key collate "C"`
    : sql<StatusedEntry[]>`
        select k.key, t.language, t.value, t.status, k.description, k.group_name as group, k.max_length as "maxLength"
        from translation_keys k
        join lateral (select * from translations where key_id = k.id and language = any(${languages}::text[]) offset 0) t on true
        where k.project_id = ${projectId} and k.group_name = ${group} and k.deleted_at is null ${passes} ${tagged}
        order by k.key collate "C"`;
}

type StatusedEntry = Entry & { language: string; status: string };

/** The entry a codec gets: the row without its language and status. */
const entry = ({ language: _language, status: _status, ...rest }: StatusedEntry): Entry => rest;

/**
 * A namespace file names its group's keys without the group's prefix (`home.title` is `title` in
 * the `home` file), as the import with the same namespace reads them; a key of the group that lacks
 * the prefix keeps its name. Two keys that would meet on one name refuse the file (422) rather than
 * drop one of them.
 */
function withoutNamespace<E extends Entry>(entries: E[], namespace: string | undefined): E[] {
  if (namespace === undefined) return entries;
  const prefix = `${namespace}.`;
  const named = new Map<string, string>();
  return entries.map((e) => {
    const key = e.key.startsWith(prefix) && e.key.length > prefix.length ? e.key.slice(prefix.length) : e.key;
    const other = named.get(key);
    if (other !== undefined) {
      throw validationError([{ loc: ['query', 'namespace'], msg: `keys '${other}' and '${e.key}' of group '${namespace}' are both '${key}' in a namespace file: rename one`, type: 'format_unsupported' }]);
    }
    named.set(key, e.key);
    return { ...e, key };
  });
}

/** The source language's values by key, and the limits of the keys read with them. */
function sourceOf(entries: Entry[]): { values: Map<string, string>; limits: Map<string, number>; entries: Entry[] } {
  const values = new Map<string, string>();
  const limits = new Map<string, number>();
  for (const e of entries) {
    values.set(e.key, e.value);
    if (e.maxLength != null) limits.set(e.key, e.maxLength);
  }
  return { values, limits, entries };
}

/** Key -> character limit, of the keys a file writes (its own values and, for XLIFF, the source-only keys). */
function limitsOf(entries: readonly Entry[], fromSource: ReadonlyMap<string, number> | undefined): Map<string, number> {
  const limits = new Map(fromSource);
  for (const e of entries) if (e.maxLength != null) limits.set(e.key, e.maxLength);
  return limits;
}

async function projectSourceLanguage(sql: Deps['sql'], projectId: string): Promise<string | undefined> {
  const [project] = await sql<{ source_language: string }[]>`select source_language from projects where id = ${projectId}`;
  return project?.source_language;
}

export const exportFile = useCase(ExportCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<ExportedFile> => {
  const { projectId, language, format, status, source } = input;
  const codec = FORMATS[format];
  if (codec.needsSource && source === undefined) {
    throw validationError([{ loc: ['query', 'source'], msg: `format ${format} needs source=<language> for its source text`, type: 'missing' }]);
  }
  if (!(await registered(deps.sql, projectId, language))) throw languageNotRegistered(language);
  if (source !== undefined && !(await registered(deps.sql, projectId, source))) throw languageNotRegistered(source);
  const { pseudo } = input;
  // A pseudo-language's file goes where the app keeps that language's: one of the project's own
  // languages would have its translations written over by a pull.
  if (pseudo !== undefined && (pseudo === language || pseudo === source || (await registered(deps.sql, projectId, pseudo)))) {
    throw validationError([{ loc: ['query', 'pseudo'], msg: `${pseudo} is a language of this project: a pseudo-language needs a code of its own (en-XA, qps-Ploc), or its file would replace that language's`, type: 'value_error' }]);
  }
  const { namespace } = input;
  if (namespace !== undefined && input.group !== undefined && input.group !== namespace) {
    throw validationError([{ loc: ['query', 'group'], msg: `group and namespace name different groups ('${input.group}', '${namespace}'): give one`, type: 'value_error' }]);
  }
  // A group or tag filter that could never name a group or tag matches nothing (the file is empty, not an error).
  const group = namespace ?? input.group;
  const { tag } = input;
  const nothing = (group !== undefined && !mayNameGroup(group)) || (tag !== undefined && !mayNameTag(tag));
  // A key whose value the status filter left out is not "not translated yet": it has no row of its
  // own (a draft shown as an empty cell would be translated again, and the import would replace it).
  // A file with source text so needs the keys the filter left out too, and the source's values: one
  // statement reads both languages, every status, and they are split here. A read per language and
  // a second read of this one cost an XLIFF export of 10,000 keys half its time (bench row export-xliff).
  const withSource = source !== undefined && (codec.needsSource || codec.takesSource === true);
  const both = nothing ? [] : await entriesOf(deps.sql, projectId, withSource ? [language, source] : [language], withSource ? 'all' : status, group, tag);
  const rows = withoutNamespace(withSource ? both.filter((row) => row.language === language) : both, namespace);
  const passes = (row: StatusedEntry) => status === 'all' || row.status === status;
  const read = rows.filter(passes).map(entry);
  const hidden = new Set(rows.filter((row) => !passes(row)).map((row) => row.key));
  // iOS keeps a language's plurals in .stringsdict and its other strings in .strings: the two files
  // split the keys by this language's value, so each key is in exactly one of them.
  const chosen = input.plurals === 'all' ? read : read.filter((e) => hasPlural(e.value) === (input.plurals === 'only'));
  const made = pseudo === undefined ? undefined : pseudoFile(chosen.map((e) => e.value), language, pseudo);
  const entries = made === undefined ? chosen : chosen.map((e, i) => ({ ...e, value: made.values[i]! }));
  // The source side follows the same split (found by review: plurals=only with source brought the
  // keys it left out back as source-only rows): a key this language has goes where its value went;
  // one it has not, where its source value would.
  const inRead = new Set(read.map((e) => e.key));
  const inChosen = new Set(chosen.map((e) => e.key));
  const sameSide = (e: Entry) => (inRead.has(e.key) ? inChosen.has(e.key) : hasPlural(e.value) === (input.plurals === 'only'));
  const sourceValues = !withSource
    ? undefined
    : sourceOf(
        withoutNamespace(both.filter((row) => row.language === source).map(entry), namespace).filter(
          (e) => !hidden.has(e.key) && (input.plurals === 'all' || sameSide(e)),
        ),
      );
  // A String Catalog names the source language (`source=`, else the project's), whatever language it holds.
  const named = codec.namesSourceLanguage ? (source ?? (await projectSourceLanguage(deps.sql, projectId))) : undefined;
  let body: Uint8Array;
  try {
    body = codec.serialize(entries, { language: pseudo ?? language, ...(named === undefined ? {} : { sourceLanguage: named }), ...(made === undefined ? {} : { plurals: made.plurals }), ...(sourceValues && source ? { source: { language: source, values: sourceValues.values, entries: sourceValues.entries } } : {}), limits: limitsOf(read, sourceValues?.limits) });
  } catch (error) {
    // A stored key or value this format cannot carry (documented per format in docs/formats.md).
    if (error instanceof FormatError) {
      const listed = error.all.slice(0, REFUSALS_LISTED).map((e) => ({ loc: ['query', 'format', ...e.loc.slice(1)], msg: e.msg, type: 'format_unsupported' }));
      const more = error.all.length - listed.length;
      throw validationError(more > 0 ? [...listed, { loc: ['query', 'format'], msg: `and ${more} more`, type: 'format_unsupported' }] : listed);
    }
    throw error;
  }
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  return { body, etag, contentType: codec.contentType, filename: `${pseudo ?? language}.${codec.extension}` };
});
