// Imports one translation file into one language: all or nothing, in one transaction. The file is
// parsed by its format's codec (core/formats), every entry validated like a single API write, the
// changes computed against what is stored, the plan's key limit and the monthly translation-unit
// quota checked, and then keys and values written with a fixed number of set-based statements
// whatever the file's size. A dry run computes the same answer and writes nothing; a preview
// (previewImport, the portal's) is a dry run that also lists a sample of what it would change.
import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { AppError, conflict, validationError, type ValidationIssue } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { isGroupName, KeyName, nfc, storableText } from '../validation.ts';
import { assertKeyCapacity, lockProject } from '../projects/lock-project.ts';
import { languageNotRegistered } from '../languages/remove-language.ts';
import { chargeUnits } from '../units/translation-units.ts';
import { FORMATS, FormatError } from '../formats/index.ts';
import { sayTheSame } from '../formats/plural/every-category.ts';
import { readIcuPlural } from '../formats/plural/icu-plural.ts';
import type { Entry } from '../formats/types.ts';
import type { TranslationStatus } from '../translations/schemas.ts';
import type { TransactionSql } from '../db/client.ts';
import { assertApprovable, blockedValues, judged as judgedValue, referencesOf, type QualitySettings } from '../quality/approval-gate.ts';
import { warningsOf, type QualityCheck } from '../quality/check-translation.ts';
import { listedGroups, listedKeyIds } from '../webhooks/listed-keys.ts';
import { CHANGES_LISTED, ImportCommand, ImportPreviewCommand, type ImportChanges, type ImportPreview, type ImportResult } from './schemas.ts';
import { keptSourceRevSql, sourceRevSql } from '../translations/outdated.ts';
import { joinTags, normalTags, TAGS_PER_KEY_MAX } from '../keys/tags.ts';

const Value = storableText('value', 10_000);
const Description = storableText('description', 1_000);
/** How many names a 409 lists; the count says how many there are in all. */
const LISTED = 20;
/** Imports that write at least this many rows refresh the planner's statistics afterwards. */

/**
 * A key of the file as stored (all null but `key` when it has none): its own columns, its value in
 * the file's language, and its source-language text, which the quality checks judge the values by.
 */
type Stored = {
  key: string;
  key_id: string | null;
  group_name: string | null;
  description: string | null;
  tags: string[] | null;
  max_length: number | null;
  value: string | null;
  status: TranslationStatus | null;
  source_value: string | null;
};

function parseFile(format: keyof typeof FORMATS, body: Uint8Array, language: string, isSource: boolean) {
  try {
    return FORMATS[format].parse(body, { language, isSource });
  } catch (error) {
    if (error instanceof FormatError) throw validationError([{ loc: error.loc, msg: error.msg, type: 'format_invalid' }]);
    throw error;
  }
}

/**
 * The file's names in NFC, as the project stores them (core/validation.ts): a file a macOS tool
 * wrote in NFD (`café` as e + U+0301) names the keys the project has, not look-alike new ones.
 * `written` keeps each entry's key as the file has it, for the duplicate check's message.
 */
function inNfc(entries: readonly Entry[]): { entries: Entry[]; written: string[] } {
  const written = entries.map((e) => e.key);
  const normalized = entries.map((e) => {
    const key = nfc(e.key);
    const group = e.group === undefined ? undefined : nfc(e.group);
    if (key === e.key && group === e.group) return e;
    return group === undefined ? { ...e, key } : { ...e, key, group };
  });
  return { entries: normalized, written };
}

/** The first problem of each entry, located by the entry's key: a file is refused whole. */
function checkEntries(entries: readonly Entry[], written: readonly string[]): void {
  const issues: ValidationIssue[] = [];
  // Each key's first entry, as the file writes it.
  const seen = new Map<string, string>();
  for (const [i, entry] of entries.entries()) {
    const loc = ['body', entry.key];
    const first = seen.get(entry.key);
    const problem =
      (!v.is(KeyName, entry.key) && v.safeParse(KeyName, entry.key).issues?.[0]?.message) ||
      (first !== undefined &&
        (first === written[i]
          ? 'key appears more than once in the file'
          : 'key appears more than once in the file, written in two Unicode forms (NFC and NFD: the same characters, composed and decomposed)')) ||
      (!v.is(Value, entry.value) && v.safeParse(Value, entry.value).issues?.[0]?.message) ||
      (entry.description != null && !v.is(Description, entry.description) && v.safeParse(Description, entry.description).issues?.[0]?.message) ||
      (entry.group !== undefined && !isGroupName(entry.group) && `group '${entry.group}' is not a valid group name`);
    if (first === undefined) seen.set(entry.key, written[i]!);
    if (problem) issues.push({ loc, msg: problem, type: 'entry_invalid' });
    if (issues.length >= 20) break;
  }
  if (issues.length) throw validationError(issues);
}

/** A created key's group: the file's own, else the part before the first '.' (not of a text key), else the query's. */
function groupOf(entry: Entry, fallback: string, keysAreText: boolean): string {
  if (entry.group) return entry.group;
  if (keysAreText) return fallback;
  const dot = entry.key.indexOf('.');
  const prefix = dot > 0 ? entry.key.slice(0, dot) : '';
  return prefix && isGroupName(prefix) ? prefix : fallback;
}

/**
 * A namespace file (an i18next namespace, `tms push` with `{group}` in a path) names its keys
 * without their group: `title` in the `home` file is the key `home.title` of group `home`, as the
 * SDK's i18next backend reads it back. Two namespace files may then both have a `title`.
 */
function inNamespace(entries: Entry[], namespace: string | undefined): Entry[] {
  if (namespace === undefined) return entries;
  return entries.map((e) => ({ ...e, key: `${namespace}.${e.key}`, group: namespace }));
}

/**
 * The namespace file's keys as the project has them, the inverse of the export's `namespace`: that
 * writes a key of the group without its `group.` prefix, and one without the prefix (`title`, made
 * in the portal or the API in group `home`) as it is. So `title` in the `home` file is the key
 * `title` when group `home` has it, else `home.title` (created in `home` if new). A `home.title` of
 * another group is refused: written there, the namespace's next export would not have it.
 */
async function resolveNamespace(sql: TransactionSql, projectId: string, namespace: string, entries: Entry[]): Promise<Entry[]> {
  const cut = namespace.length + 1;
  const names = entries.flatMap((e) => [e.key, e.key.slice(cut)]);
  const live = await sql<{ key: string; group_name: string }[]>`
    select key, group_name from translation_keys
    where project_id = ${projectId} and deleted_at is null and key = any(${names}::text[])`;
  const groupOfKey = new Map(live.map((k) => [k.key, k.group_name]));
  const issues: ValidationIssue[] = [];
  const resolved = entries.map((e) => {
    const bare = e.key.slice(cut);
    if (groupOfKey.get(bare) === namespace) return { ...e, key: bare };
    const other = groupOfKey.get(e.key);
    if (other !== undefined && other !== namespace && issues.length < 20) {
      issues.push({ loc: ['body', bare], msg: `'${e.key}' is a key of group '${other}', not of '${namespace}': move it to '${namespace}', or import it without namespace`, type: 'value' });
    }
    return e;
  });
  // Two entries may name one key once resolved: `title` (no key `title` in the group: the key
  // `home.title`) and `home.title` (the group's key `home.title`). Refused as a name twice in a file is.
  const fileKeyOf = new Map<string, string>();
  resolved.forEach((e, i) => {
    const bare = entries[i]!.key.slice(cut);
    const first = fileKeyOf.get(e.key);
    if (first !== undefined && issues.length < 20) {
      issues.push({ loc: ['body', bare], msg: `'${bare}' and '${first}' both name the key '${e.key}' in namespace '${namespace}': keep one of them`, type: 'entry_invalid' });
    }
    fileKeyOf.set(e.key, bare);
  });
  if (issues.length) throw validationError(issues);
  return resolved;
}

/**
 * A plural a format reads back over `count` (FormatCodec.pluralsOverCount), written over the stored
 * value's own argument: `{n, plural, …}` exported to i18next, PO, Android or YAML comes back as
 * `{count, plural, …}`, and written so it broke every app passing `n` and, pushed back unchanged,
 * cost a translation unit. The file's plural holds its count as `#` only (pluralToIcu), so the name
 * is the argument's alone.
 */
function overStoredArgument(entry: Entry, stored: string | null): Entry {
  if (stored === null || !entry.value.startsWith(COUNT_PLURAL)) return entry;
  const own = readIcuPlural(stored);
  if (own === null || own.arg === 'count') return entry;
  const renamed = `{${own.arg}, ${entry.value.slice(COUNT_PLURAL.length)}`;
  const read = readIcuPlural(renamed);
  return read !== null && read.ordinal === own.ordinal ? { ...entry, value: renamed } : entry;
}
const COUNT_PLURAL = '{count, ';

/**
 * The groups of the values an import created: a new key's (as inserted) and an existing key's
 * whose value in this language was missing. Sorted, each once.
 */
function createdGroups(entries: readonly Entry[], byKey: Map<string, Stored>, newKeys: readonly Entry[], newKeyGroups: readonly string[]): string[] {
  const groups = new Set(newKeyGroups);
  if (entries.length > newKeys.length) {
    for (const entry of entries) {
      const row = byKey.get(entry.key);
      if (row?.key_id && row.value === null && row.group_name !== null) groups.add(row.group_name);
    }
  }
  return [...groups].sort();
}

/**
 * The existing keys an import changes (their description, their tags, or both), by id, with each
 * as read: null where that part is left as it is.
 */
type KeyChange = { id: string; key: string; description: string | null; descriptionBefore: string | null; tags: string[] | null; tagsBefore: string[] | null };

function keyChanges(
  describe: readonly { id: string; description: string; before: string | null }[],
  tagging: readonly { id: string; key: string; before: string[]; after: string[] }[],
): KeyChange[] {
  const byId = new Map<string, KeyChange>();
  const of = (id: string, key: string) => byId.get(id) ?? byId.set(id, { id, key, description: null, descriptionBefore: null, tags: null, tagsBefore: null }).get(id)!;
  for (const d of describe) Object.assign(of(d.id, ''), { description: d.description, descriptionBefore: d.before });
  for (const t of tagging) Object.assign(of(t.id, t.key), { key: t.key, tags: t.after, tagsBefore: t.before });
  return [...byId.values()];
}

const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/** Most values an import's answer lists with their quality warnings; `count` has them all. */
const QUALITY_LISTED = 100;

/**
 * The quality checks of the values an import writes, against the keys' source values as stored (a
 * file of the source language is judged alone). As approved, a value a blocking check refuses
 * refuses the whole file (422, nothing written): docs/quality.md.
 */
async function judgeImport(
  sql: TransactionSql,
  input: { projectId: string; language: string; status: TranslationStatus; settings: QualitySettings; writes: Entry[]; byKey: Map<string, Stored> },
): Promise<ImportResult['quality_warnings']> {
  const { settings } = input;
  if (input.writes.length === 0) return { count: 0, values: [] };
  const judged = input.writes.map((e) => ({ key: e.key, key_id: input.byKey.get(e.key)?.key_id ?? '', language: input.language, value: e.value }));
  const refs = judged.flatMap((j) => {
    const row = j.key_id ? input.byKey.get(j.key) : undefined;
    return row ? [{ key_id: j.key_id, value: row.source_value, max_length: row.max_length }] : [];
  });
  const sources = await referencesOf(sql, input.projectId, settings.sourceLanguage, refs);
  if (input.status === 'approved') {
    assertApprovable(blockedValues(judged, sources, settings), (b) => ['file', b.key ?? b.key_id]);
  }
  const found = judged.flatMap((j) => warningsOf(judgedValue(j, sources, settings.sourceLanguage)).map((w) => ({ key: j.key, ...w })));
  return { count: found.length, values: found.slice(0, QUALITY_LISTED) };
}

/**
 * Attempts of an import whose key insert met a name created meanwhile, or whose read a concurrent
 * write made stale (ImportRaced); each sees the ones before.
 */
const NAME_TAKEN_ATTEMPTS = 4;

/**
 * Runs the import's transaction again when its insert of new keys met a name that another writer
 * created after the import read its keys: a key creation in a project without a key limit takes no
 * project lock (core/keys/key-creations.ts), so the import's lock does not keep it out. Refusing
 * the file for that (a 409 from the unique index) would be wrong for an import that overwrites: run
 * again, it finds the key and writes its value onto it, with counts and units as of then. Inside a
 * caller's transaction the error has aborted it, so it is passed on.
 */
export async function againWhenNameTaken<T>(deps: { tx?: unknown }, run: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (error) {
      // The database's error itself, or (from a use-case around the import) the domain error made of it.
      const e = ((error as { cause?: unknown } | null)?.cause ?? error) as { code?: unknown; constraint_name?: unknown } | null;
      const nameTaken = e?.code === '23505' && e.constraint_name === 'translation_keys_live_name_idx';
      if (!(nameTaken || error instanceof ImportRaced) || deps.tx || attempt >= NAME_TAKEN_ATTEMPTS) throw error;
    }
  }
}

/**
 * The file's live keys and their values in `language`, locked in the order every multi-row write
 * takes (keys by id, then values by key id: test/keys/lock-order.test.ts). FOR NO KEY UPDATE
 * stops a key's deletion or rename and a value's change or deletion until the import commits, but
 * not a foreign-key check: a value being created for one of the keys is not held up, and so cannot
 * wait on the import while the import waits on its row. Such a value, new since the read, is the
 * one race left, caught as before.
 */
async function lockForImport(sql: TransactionSql, projectId: string, language: string, keys: string[]): Promise<void> {
  await sql`
    with key_rows as materialized (
      select id from translation_keys
      where project_id = ${projectId} and key = any(${keys}::text[]) and deleted_at is null
      order by id for no key update
    ), value_rows as materialized (
      select 1 from translations
      where key_id in (select id from key_rows) and language = ${language}
      order by key_id for no key update
    )
    select count(*) from value_rows`;
}

/**
 * What the import read changed before it wrote: a key it updates was deleted (or renamed), or a value
 * it creates was saved meanwhile, or one it updates changed or deleted (a translator's PUT takes no
 * project lock). The import runs again on what is there now, as if it had come after; a 409 when it
 * cannot (inside another transaction, or every attempt raced).
 */
class ImportRaced extends AppError {
  constructor() {
    super('conflict', 'The project changed while the import ran (a key deleted, or a value saved meanwhile); nothing was written: send it again');
  }
}

/**
 * `lockBeforeRead`: this import runs again after a race, from a caller that runs it inside its own
 * transaction and so counts the attempts itself (the portal's Apply): it locks what it reads, as
 * the import's own second attempt does.
 */
type ImportDeps = Pick<Deps, 'sql' | 'events' | 'tx' | 'clock' | 'config' | 'log'> & { lockBeforeRead?: boolean };

export const importFile = useCase(ImportCommand, (deps: ImportDeps, input): Promise<ImportResult> => runImport(deps, input, null));

/**
 * The import's dry run (402, 409 and 422 included) with the first CHANGES_LISTED new keys, new
 * values and changed values (text and status before and after), and how many approved values would
 * lose that status: what the portal shows before *Apply this import*. The API's answer has none of
 * it, and importFile collects none.
 */
export const previewImport = useCase(ImportPreviewCommand, async (deps: ImportDeps, input): Promise<ImportPreview> => {
  const changes = noChanges();
  const result = await runImport(deps, { ...input, dryRun: true }, changes);
  return { ...result, changes };
});

/**
 * The import, handing what it is about to do (its counts and a sample of its changes, as
 * previewImport lists them) to `beforeWrite` once it has decided and before it writes. The portal's
 * Apply throws from it when that is not what its preview showed: the check and the write then come
 * from one read of the project, so a value saved or approved after the check cannot be written over
 * unseen (a second dry run before the import could not see it).
 */
export const importAsPreviewed = (deps: ImportDeps, input: v.InferInput<typeof ImportPreviewCommand>, beforeWrite: (preview: ImportPreview) => void): Promise<ImportResult> =>
  useCase(ImportPreviewCommand, (d: ImportDeps, parsed) => runImport(d, { ...parsed, dryRun: false }, noChanges(), beforeWrite))(deps, input);

const noChanges = (): ImportChanges => ({ new_keys: [], new_values: [], changed_values: [], changed_descriptions: [], tagged_keys: [], approved_demoted: 0, values_kept: 0 });

/** The import; `changes`, when given (a preview's dry run), is filled as the entries are compared. */
async function runImport(
  deps: ImportDeps,
  input: v.InferOutput<typeof ImportCommand>,
  changes: ImportChanges | null,
  beforeWrite?: (preview: ImportPreview) => void,
): Promise<ImportResult> {
  const { projectId, language, status } = input;
  // Whether the file is the source language's: a gettext template's msgids are then its values.
  // In the caller's transaction when there is one (the portal's one-time Apply): a one-connection
  // pool has no second connection to ask on.
  const [project] = await (deps.tx?.sql ?? deps.sql)<{ source_language: string }[]>`select source_language from projects where id = ${projectId}`;
  const parsed = parseFile(input.format, input.body, language, project?.source_language === language);
  const file = inNfc(parsed.entries);
  const fileEntries = inNamespace(file.entries, input.namespace);
  checkEntries(fileEntries, file.written);
  let entries = fileEntries;

  const result = await againWhenNameTaken(deps, (attempt) => transaction(deps, async (tx) => {
    const { sql } = tx;
    const project = await lockProject(sql, projectId);
    // The language's registration and the quality settings in one question; the project's lock
    // keeps its source language as read to the end of the import.
    const [registered] = await sql<{ source_language: string; quality_blocking: QualityCheck[] }[]>`
      select p.source_language, p.quality_blocking
      from project_languages l join projects p on p.id = l.project_id
      where l.project_id = ${projectId} and l.code = ${language}`;
    if (!registered) throw languageNotRegistered(language);
    const settings: QualitySettings = { sourceLanguage: registered.source_language, blocking: registered.quality_blocking };
    if (input.namespace !== undefined) entries = await resolveNamespace(sql, projectId, input.namespace, fileEntries);
    // Run again after a race: its keys and their values are locked before they are read, so that
    // the writers it lost to (translators saving the same few values all day) cannot take them
    // away a second time. The first attempt reads without locks: a re-import that changes nothing
    // (a CI sync) then writes nothing, not even a lock on each row.
    if (attempt > 1 || deps.lockBeforeRead) await lockForImport(sql, projectId, language, entries.map((e) => e.key));

    // Each key's value by its primary key (OFFSET 0, as core/keys/by-id.ts): a plain join let a
    // planner without statistics (a project just loaded) pair every key of the project with every
    // value of the language, and a re-import of 10,000 keys read for 6 s. Its source-language text
    // comes in the same statement (for a file of the source language, that is the value itself):
    // asked apart, by key id, it cost about as much again as this whole read.
    const isSource = language === settings.sourceLanguage;
    const stored = await sql<Stored[]>`
      select n.key, k.id as key_id, k.group_name, k.description, k.tags, k.max_length, t.value, t.status,
             ${isSource ? sql`t.value` : sql`s.value`} as source_value
      from unnest(${entries.map((e) => e.key)}::text[]) as n(key)
      left join translation_keys k on k.project_id = ${projectId} and k.key = n.key and k.deleted_at is null
      left join lateral (select * from translations where key_id = k.id and language = ${language} offset 0) t on t.project_id = ${projectId}
      ${isSource ? sql`` : sql`left join lateral (select value from translations where key_id = k.id and language = ${settings.sourceLanguage} offset 0) s on true`}`;
    const byKey = new Map(stored.map((row) => [row.key, row]));
    if (FORMATS[input.format].pluralsOverCount) entries = entries.map((e) => overStoredArgument(e, byKey.get(e.key)?.value ?? null));

    const newKeys: Entry[] = [];
    const writes: Entry[] = [];
    // Existing keys whose description the file changes (as the file says it, and as read: `before`).
    const describe: { id: string; description: string; before: string | null }[] = [];
    // Existing keys of the file without the import's tag (their tags as read: `before`, and after).
    const tagging: { id: string; key: string; before: string[]; after: string[] }[] = [];
    const wouldChange: string[] = [];
    let valuesCreated = 0;
    let valuesUpdated = 0;
    let unchanged = 0;
    let kept = 0;
    let units = 0;
    if (changes) Object.assign(changes, noChanges()); // a transaction run again starts afresh
    for (const entry of entries) {
      const row = byKey.get(entry.key);
      if (!row?.key_id) {
        newKeys.push(entry);
        writes.push(entry);
        valuesCreated++;
        units++;
        if (changes) {
          if (changes.new_keys.length < CHANGES_LISTED) changes.new_keys.push(entry.key);
          if (changes.new_values.length < CHANGES_LISTED) changes.new_values.push({ key: entry.key, value: entry.value });
        }
        continue;
      }
      // The tag is the key's, as a description is, but not content a conflict policy guards: every
      // key the file names gets it, whatever `conflict` says and whether or not its value changes.
      if (input.tag !== undefined && !row.tags!.includes(input.tag)) {
        tagging.push({ id: row.key_id, key: entry.key, before: row.tags!, after: normalTags([...row.tags!, input.tag]) });
        if (changes && changes.tagged_keys.length < CHANGES_LISTED) changes.tagged_keys.push(entry.key);
      }
      if (row.value === null) {
        writes.push(entry);
        valuesCreated++;
        units++;
        if (changes && changes.new_values.length < CHANGES_LISTED) changes.new_values.push({ key: entry.key, value: entry.value });
      } else if (row.status === status && sayTheSame(row.value, entry.value, language)) {
        // The same text, or the same plural with the categories it left to `other` written out (a
        // pulled i18next, Rails or PO file pushed back): no change.
        unchanged++;
      } else if (input.conflict === 'keep') {
        unchanged++;
        kept++;
        if (changes) changes.values_kept++;
        continue;
      } else {
        // Only the status changes: the stored text stays as it is spelled.
        const sameText = sayTheSame(row.value, entry.value, language);
        wouldChange.push(entry.key);
        writes.push(sameText ? { ...entry, value: row.value } : entry);
        valuesUpdated++;
        // A text already stored for this key and language is a translation-memory hit: free.
        if (!sameText) units++;
        if (changes) {
          if (row.status === 'approved' && status !== 'approved') changes.approved_demoted++;
          if (changes.changed_values.length < CHANGES_LISTED) {
            changes.changed_values.push({ key: entry.key, before: { value: row.value, status: row.status! }, after: { value: sameText ? row.value : entry.value, status } });
          }
        }
      }
      // A description is the key's, not the value's: with overwrite and fail alike it follows the
      // file, whether or not the value changes (conflict=fail refuses changed values only); with
      // keep the key stays as it is.
      if (input.conflict !== 'keep' && entry.description != null && entry.description !== row.description) {
        describe.push({ id: row.key_id, description: entry.description, before: row.description });
        if (changes && changes.changed_descriptions.length < CHANGES_LISTED) {
          changes.changed_descriptions.push({ key: entry.key, before: row.description, after: entry.description });
        }
      }
    }
    // A key the tag would take past the limit refuses the file, as a bulk action refuses (nothing written).
    const over = tagging.filter((k) => k.after.length > TAGS_PER_KEY_MAX);
    if (over.length > 0) {
      const more = over.length > LISTED ? ` and ${over.length - LISTED} more` : '';
      throw validationError([
        { loc: ['query', 'tag'], msg: `a key has at most ${TAGS_PER_KEY_MAX} tags: ${over.slice(0, LISTED).map((k) => k.key).join(', ')}${more} would have more`, type: 'too_many' },
      ]);
    }
    const quality = await judgeImport(sql, { projectId, language, status, settings, writes, byKey });
    if (input.conflict === 'fail' && wouldChange.length > 0) {
      const more = wouldChange.length > LISTED ? ` and ${wouldChange.length - LISTED} more` : '';
      throw conflict(`Import refused (conflict=fail): existing values would change for ${wouldChange.slice(0, LISTED).join(', ')}${more}`);
    }
    await assertKeyCapacity(sql, projectId, project.plan, project.limits.keysPerProject, newKeys.length);
    await chargeUnits(sql, {
      account: project,
      units,
      now: deps.clock.now(),
      upgradeUrl: deps.config.UPGRADE_URL,
      dryRun: input.dryRun,
    });

    const answer: ImportResult = {
      project_id: projectId,
      language,
      format: input.format,
      dry_run: input.dryRun,
      keys_created: newKeys.length,
      values_created: valuesCreated,
      values_updated: valuesUpdated,
      values_unchanged: unchanged,
      values_kept: kept,
      descriptions_updated: describe.length,
      keys_tagged: tagging.length,
      translation_units: units,
      warnings: parsed.warnings,
      quality_warnings: quality,
    };
    if (input.dryRun) return answer;
    if (beforeWrite && changes) beforeWrite({ ...answer, dry_run: true, changes });

    const newKeyGroups = newKeys.map((e) => groupOf(e, input.group, FORMATS[input.format].keysAreText === true));
    // Each key of the file by id: read above, or given by this insert.
    const keyIdOf = new Map<string, string>();
    for (const row of stored) if (row.key_id) keyIdOf.set(row.key, row.key_id);
    if (newKeys.length) {
      const created = await sql<{ id: string; key: string }[]>`
        insert into translation_keys (project_id, key, group_name, description, tags)
        select ${projectId}, n.key, n.group_name, n.description, ${input.tag === undefined ? [] : [input.tag]}::text[]
        from unnest(${newKeys.map((e) => e.key)}::text[], ${newKeyGroups}::text[],
                    ${newKeys.map((e) => e.description ?? null)}::text[]) as n(key, group_name, description)
        returning id, key`;
      for (const row of created) keyIdOf.set(row.key, row.id);
    }
    // Keys, then values, each locked in key id order: the order of bulk actions, group changes,
    // language removal and the value batches, so that none of them can deadlock with an import
    // (test/keys/lock-order.test.ts). In the file's order they could.
    // The descriptions and tags it replaces are read from the locked rows (a locking read waits for
    // a write of the key, then sees the key as that write left it), as the values' are below: a key
    // deleted, or a description or its tags changed, since the read is not what the counts and a
    // preview's check were decided on, nor what key.updated would keep as `before`. Run again on it.
    // One statement for both, so that the keys are locked in one pass in id order (two statements,
    // one per kind, would each lock in id order but not together).
    const keyUpdates = keyChanges(describe, tagging);
    const updated = keyUpdates.length
      ? await sql<{ id: string; group_name: string; description: string | null; tags: string[]; max_length: number | null }[]>`
          with locked as materialized (
            select id, description, tags from translation_keys
            where id = any(${keyUpdates.map((u) => u.id)}::uuid[]) and deleted_at is null
            order by id for no key update
          )
          update translation_keys k set
            description = coalesce(d.description, k.description),
            tags = coalesce(string_to_array(d.tag_list, chr(31)), k.tags),
            updated_at = now()
          from unnest(${keyUpdates.map((u) => u.id)}::uuid[], ${keyUpdates.map((u) => u.description)}::text[],
                      ${keyUpdates.map((u) => (u.tags === null ? null : joinTags(u.tags)))}::text[]) as d(id, description, tag_list)
          join locked on locked.id = d.id
          where k.id = d.id
          returning k.id, k.group_name, locked.description, locked.tags, k.max_length`
      : [];
    const asRead = new Map(keyUpdates.map((u) => [u.id, u]));
    const sameAsRead = (now: { id: string; description: string | null; tags: string[] }) => {
      const read = asRead.get(now.id)!;
      return (read.description === null || read.descriptionBefore === now.description) && (read.tags === null || sameTags(read.tagsBefore!, now.tags));
    };
    if (updated.length !== keyUpdates.length || !updated.every(sameAsRead)) throw new ImportRaced();
    // The values about to be overwritten, locked (in key id order, as the upsert would lock them)
    // and read as they are now: a write committed since the read above is what this import
    // replaces, and what its per-value event must keep for History and revert. Only values the read
    // found: a value saved meanwhile where it found none is caught by the upsert's counts below
    // (and the 10,000 new values of a language's first import cost no lookup here).
    const overwritten = writes.flatMap((e) => {
      const row = byKey.get(e.key);
      return row?.key_id && row.value !== null ? [row.key_id] : [];
    });
    const previous = overwritten.length
      ? await sql<{ key_id: string; value: string; status: TranslationStatus }[]>`
          select key_id, value, status from translations
          where project_id = ${projectId} and language = ${language} and key_id = any(${overwritten}::uuid[])
          order by key_id for no key update`
      : [];
    // Locked now: a value changed between the read and this lock (a translator's PUT, an approval)
    // is not what the counts, the units and a preview's check were decided on. Run again on it.
    const read = new Map(stored.map((row) => [row.key_id, row]));
    if (previous.some((now) => read.get(now.key_id)?.value !== now.value || read.get(now.key_id)?.status !== now.status)) throw new ImportRaced();
    // The keys whose value this import created, for webhooks (listed in its event below).
    let createdKeyIds: string[] = [];
    if (writes.length) {
      // Every write lands as the read found it, or the import runs again: a key deleted since the
      // read drops out of the join, and with keep or fail (whose writes are all new values) a value
      // saved since the read is left alone, not overwritten; with overwrite, a value saved (or
      // deleted) since the read is replaced (or made) as the file says, but was counted as created
      // (or updated). Either way the counts, units and events above would be wrong. `xmax = 0`
      // tells a row this statement inserted from one its ON CONFLICT updated. Each text is written
      // against the key's source text committed now (core/translations/outdated.ts).
      // Each entry's key is found by its id (the fenced lateral: the primary key, whatever the
      // planner knows), and the project, the name and deleted_at are checked on the row found, so
      // a key renamed or deleted since the read drops out. A join by name let the generic plan,
      // which counts the file as 10 rows, compare every entry with every key of the project, and a
      // lookup by name could take the group index, which scans the project's keys for each entry
      // (test/core/bulk-plans.test.ts).
      const written = await sql<{ key_id: string; inserted: boolean }[]>`
        insert into translations (key_id, project_id, language, value, status, source_rev)
        select k.id, ${projectId}, ${language}, w.value, ${status}, ${sourceRevSql(sql, sql`k.id`, sql`(select source_language from projects where id = ${projectId})`)}
        from unnest(${writes.map((e) => keyIdOf.get(e.key) ?? null)}::uuid[], ${writes.map((e) => e.key)}::text[], ${writes.map((e) => e.value)}::text[]) as w(key_id, key, value)
        cross join lateral (select id, project_id, key, deleted_at from translation_keys where id = w.key_id offset 0) k
        where k.project_id = ${projectId} and k.key = w.key and k.deleted_at is null
        order by k.id
        on conflict (key_id, language) do ${
          input.conflict === 'overwrite'
            ? sql`update set value = excluded.value, status = excluded.status, updated_at = now(),
                source_rev = ${keptSourceRevSql(sql, 'translations', sql`excluded.value`, sql`excluded.source_rev`)}`
            : sql`nothing`
        }
        returning key_id, (xmax = 0) as inserted`;
      createdKeyIds = written.flatMap((row) => (row.inserted ? [row.key_id] : []));
      if (written.length !== writes.length || createdKeyIds.length !== valuesCreated) throw new ImportRaced();
    }
    // A file that changed nothing records nothing (and so queues no rebuild).
    if (newKeys.length + writes.length + describe.length + tagging.length === 0) return answer;
    // Every existing value whose text or status changed: one translation.written each, as a bulk
    // status change records them (one multi-row insert at commit), so History lists the import's
    // replacement and can revert to the text it replaced. Values the import created are told by
    // the import's own event below (History shows them as stored, with that import).
    const newValue = new Map(writes.map((e) => [byKey.get(e.key)?.key_id, e.value]));
    for (const before of previous) {
      const value = newValue.get(before.key_id)!;
      if (before.value === value && before.status === status) continue;
      tx.record({
        type: 'translation.written',
        projectId,
        actor: input.actor,
        entity: { type: 'translation', id: `${before.key_id}/${language}` },
        before: { value: before.value, status: before.status },
        after: { value, status },
      });
    }
    // Every key whose description or tags it changed: one key.updated each, with the old and the new
    // ones (inserted with the events above in the one statement at commit). A description changed is
    // recorded as a PATCH of the key records it (group_name, description, tags and max_length, which
    // no file changes); tags alone as a
    // bulk tag action records them (tags, and the key's name after); both in one event.
    for (const key of updated) {
      const change = asRead.get(key.id)!;
      const described = change.description !== null;
      tx.record({
        // Tags alone are not content: key.tagged, as a bulk tagging records them (no rebuild, no webhook).
        type: described ? 'key.updated' : 'key.tagged',
        projectId,
        actor: input.actor,
        entity: { type: 'key', id: key.id },
        before: { ...(described ? { group_name: key.group_name, description: key.description } : {}), tags: key.tags, ...(described ? { max_length: key.max_length } : {}) },
        after: {
          ...(change.tags === null ? {} : { key: change.key }),
          ...(described ? { group_name: key.group_name, description: change.description } : {}),
          tags: change.tags ?? key.tags,
          ...(described ? { max_length: key.max_length } : {}),
        },
      });
    }
    // An import that only tagged keys changed nothing served: its key.tagged events say what it did,
    // and no translation.imported (which rebuilds and tells webhooks the translations changed).
    if (newKeys.length + writes.length + describe.length === 0) return answer;
    tx.record({
      type: 'translation.imported',
      projectId,
      actor: input.actor,
      entity: { type: 'language', id: language },
      after: {
        format: input.format,
        status,
        conflict: input.conflict,
        keys_created: answer.keys_created,
        values_created: answer.values_created,
        values_updated: answer.values_updated,
        values_unchanged: answer.values_unchanged,
        descriptions_updated: answer.descriptions_updated,
        ...(input.tag === undefined ? {} : { tag: input.tag, keys_tagged: answer.keys_tagged }),
        translation_units: units,
        // For webhooks' translations.changed (core/webhooks/listed-keys.ts): the values it created
        // have no event of their own, so their keys (the first KEYS_LISTED; values_created says
        // whether that is all) and every group they are in are named here.
        key_ids: listedKeyIds(createdKeyIds),
        ...listedGroups(createdGroups(entries, byKey, newKeys, newKeyGroups)),
      },
    });
    return answer;
  }));

  // Its statistics are refreshed after commit by core/db/refresh-statistics.ts (the import's event).
  if (!input.listValues) return result;
  // Own properties only: a key named __proto__ is listed as any other.
  const values: Record<string, string> = Object.create(null);
  for (const entry of entries) Object.defineProperty(values, entry.key, { value: entry.value, enumerable: true, writable: true, configurable: true });
  return { ...result, values };
}
