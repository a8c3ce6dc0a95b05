import * as v from 'valibot';
import { GroupName, LookupName, StoredGroupName, Uuid } from '../validation.ts';
import { InProject, WriteInProject } from '../commands.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { StatusFilter, TranslationStatus } from '../translations/schemas.ts';
import { DEFAULT_GROUP } from '../keys/schemas.ts';
import { FORMATS } from '../formats/index.ts';
import { QUALITY_CHECKS } from '../quality/check-translation.ts';
import type { FormatId } from '../formats/types.ts';
import { Tag, TagLookup } from '../keys/tags.ts';

const FORMAT_IDS = Object.keys(FORMATS) as [FormatId, ...FormatId[]];

export const FormatName = v.picklist(FORMAT_IDS, `format must be one of ${FORMAT_IDS.join(', ')}`);
export const ConflictPolicy = v.picklist(['overwrite', 'keep', 'fail'], 'conflict must be overwrite, keep or fail');
export type ConflictPolicy = v.InferOutput<typeof ConflictPolicy>;
const booleanFlag = (name: string) =>
  v.pipe(
    v.picklist(['true', 'false'], `${name} must be true or false`),
    v.transform((s) => s === 'true'),
  );

// Query strings tolerate unknown parameters; the known ones are checked.
export const ImportQuery = v.object({
  format: v.optional(FormatName, 'json'),
  status: v.optional(TranslationStatus, 'draft'),
  conflict: v.optional(ConflictPolicy, 'overwrite'),
  dry_run: v.optional(booleanFlag('dry_run'), 'false'),
  /** The group of created keys whose name has no usable group prefix. */
  group: v.optional(GroupName, DEFAULT_GROUP),
  /** The file is one group's keys named without the group's prefix (an i18next namespace file). */
  namespace: v.optional(GroupName),
  /** The answer also lists every key of the file with the text the import writes (`values`). */
  values: v.optional(booleanFlag('values'), 'false'),
  /** Every key the file names gets this tag (created keys with it, existing ones added), whatever `conflict` says. */
  tag: v.optional(Tag),
});

/**
 * An export's tag filter: as the key listing's (core/keys/key-filter.ts), a text that could never be
 * a tag matches no key, and a blank one is refused (leave it out to mean every key).
 */
export const TagFilter = v.pipe(
  TagLookup,
  v.check((s) => s !== '', 'tag must not be empty: leave it out to mean every key'),
);

/** Which values an export takes by whether they are plurals (core/formats/plural/icu-plural.ts, hasPlural). */
export const PluralsFilter = v.picklist(['all', 'only', 'none']);

export const ExportQuery = v.object({
  format: v.optional(FormatName, 'json'),
  status: v.optional(StatusFilter, 'approved'),
  group: v.optional(v.string()),
  /** Only this group's keys, named without the group's prefix (an i18next namespace file). */
  namespace: v.optional(StoredGroupName),
  /** The source language (XLIFF's <source>); required by the formats that carry one. */
  source: v.optional(LanguageCode),
  /** Only the keys whose value is a plural (only), or only the others (none): iOS's .stringsdict beside its .strings. */
  plurals: v.optional(PluralsFilter, 'all'),
  /** Only the keys with this tag (exact, case kept). */
  tag: v.optional(TagFilter),
  /** The file of a pseudo-language with this code: the language's values pseudo-localized (core/files/pseudo-localize.ts). */
  pseudo: v.optional(LanguageCode),
});

export const ImportCommand = v.object({
  ...WriteInProject,
  language: LanguageCode,
  format: FormatName,
  status: TranslationStatus,
  conflict: ConflictPolicy,
  dryRun: v.boolean(),
  group: GroupName,
  namespace: v.optional(GroupName),
  body: v.instance(Uint8Array),
  /** Answer `values` too: every key of the file with its text as the import reads it. */
  listValues: v.optional(v.boolean(), false),
  /** The tag every key of the file gets. */
  tag: v.optional(Tag),
});

/** A preview: the import's dry run with a sample of its changes (previewImport); no dryRun of its own. */
export const ImportPreviewCommand = v.omit(ImportCommand, ['dryRun']);

export const ExportCommand = v.object({
  ...InProject,
  language: LanguageCode,
  format: FormatName,
  status: StatusFilter,
  group: v.optional(LookupName),
  namespace: v.optional(StoredGroupName),
  source: v.optional(LanguageCode),
  plurals: v.optional(PluralsFilter, 'all'),
  tag: v.optional(TagFilter),
  pseudo: v.optional(LanguageCode),
});

export const ImportResult = v.object({
  project_id: Uuid,
  language: v.string(),
  format: FormatName,
  dry_run: v.boolean(),
  keys_created: v.number(),
  values_created: v.number(),
  values_updated: v.number(),
  values_unchanged: v.number(),
  /** Of values_unchanged: values that differ from the file's, left as stored by conflict=keep. */
  values_kept: v.number(),
  /**
   * Existing keys whose description the file changes (conflict=keep changes none); a created key's
   * description is part of keys_created. Each is recorded as a key.updated with the old and new one.
   */
  descriptions_updated: v.number(),
  /**
   * With tag: existing keys of the file that did not have it and get it (whatever conflict says);
   * created keys get it too and are counted in keys_created. Each is recorded as a key.updated with
   * the tags before and after. 0 without tag.
   */
  keys_tagged: v.number(),
  translation_units: v.number(),
  warnings: v.array(v.string()),
  /** The quality checks' warnings of the values written (docs/quality.md): how many, and the first 100. */
  quality_warnings: v.object({
    count: v.number(),
    values: v.array(v.object({ key: v.string(), check: v.picklist(QUALITY_CHECKS), message: v.string() })),
  }),
  /**
   * Asked with values=true: every key of the file (a namespace file's with the group's prefix) and
   * the text the import reads for it, plurals as ICU messages; what two files would write for one key
   * can be compared before either is imported (tms push --conflict fail).
   */
  values: v.optional(v.record(v.string(), v.string())),
});
export type ImportResult = v.InferOutput<typeof ImportResult>;

/** The most of each kind a preview lists (previewImport); the answer's counts have them all. */
export const CHANGES_LISTED = 100;

/**
 * What an import would change, as its dry run finds it: the first CHANGES_LISTED of each kind, in
 * the file's order (their counts are the answer's keys_created, values_created, values_updated,
 * descriptions_updated and keys_tagged).
 */
export type ImportChanges = {
  new_keys: string[];
  /** The values it would create, of new keys and of existing keys without one in the language. */
  new_values: { key: string; value: string }[];
  /** The existing values whose text or status it would change (none with conflict=keep). */
  changed_values: { key: string; before: { value: string; status: TranslationStatus }; after: { value: string; status: TranslationStatus } }[];
  /** The existing keys whose description it would change (none with conflict=keep): before (null: none) and after. */
  changed_descriptions: { key: string; before: string | null; after: string }[];
  /** With tag: the existing keys that would get it (keys_tagged counts them all). */
  tagged_keys: string[];
  /** How many approved values it would change to another status (all of them, not a sample). */
  approved_demoted: number;
  /** How many existing values differ from the file but are kept (conflict=keep; all of them). */
  values_kept: number;
};

/** A dry run's answer with its sample of changes: the portal's import preview. */
export type ImportPreview = ImportResult & { changes: ImportChanges };
