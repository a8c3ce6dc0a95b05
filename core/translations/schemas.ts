import * as v from 'valibot';
import { LookupName, storableText, Uuid } from '../validation.ts';
import { InProject, WriteInProject } from '../commands.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { QUALITY_CHECKS } from '../quality/check-translation.ts';

export const TRANSLATION_STATUSES = ['draft', 'review', 'approved'] as const;
export const TranslationStatus = v.picklist(TRANSLATION_STATUSES, 'status must be draft, review or approved');
export type TranslationStatus = v.InferOutput<typeof TranslationStatus>;

/** The live reads' ?status: one status, or all of them. */
export const StatusFilter = v.picklist([...TRANSLATION_STATUSES, 'all'], 'status must be approved, draft, review or all');
export type StatusFilter = v.InferOutput<typeof StatusFilter>;

// Query strings tolerate unknown parameters (cache busters, tracing); only known ones are checked.
export const TranslationsQuery = v.object({ status: v.optional(StatusFilter, 'approved') });
export type TranslationsQuery = v.InferOutput<typeof TranslationsQuery>;

/** An overwrite without a status resets it to draft: a changed text needs review again. */
export const PutTranslationInput = v.strictObject({
  value: storableText('value', 10_000),
  status: v.optional(TranslationStatus, 'draft'),
});
export type PutTranslationInput = v.InferOutput<typeof PutTranslationInput>;

// Use-case inputs. Group and key names of reads are any string: a name that could never exist has
// no value (404), which is the answer a reader needs, not a validation error.
/**
 * A write's If-Match, parsed (functions/http/if-match.ts): '*' (the value must exist) or the versions
 * the caller accepts (an empty list matches nothing). Absent: the write is unconditional.
 */
export const IfMatch = v.union([v.literal('*'), v.array(v.pipe(v.number(), v.integer(), v.minValue(0)))]);
export type IfMatch = v.InferOutput<typeof IfMatch>;
export const PutTranslationCommand = v.object({
  ...WriteInProject,
  keyId: Uuid,
  language: LanguageCode,
  ...PutTranslationInput.entries,
  ifMatch: v.optional(IfMatch),
  /** Create-only (`*`) or "unless at these versions"; with ifMatch, both must hold (RFC 9110 13.2.2). */
  ifNoneMatch: v.optional(IfMatch),
  /**
   * With a condition: the number of the source text the writer was shown (the portal's editor), which
   * the value is then written against (core/translations/outdated.ts); else the one committed now.
   */
  sourceRev: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});
export const DeleteTranslationCommand = v.object({
  ...WriteInProject,
  keyId: Uuid,
  language: LanguageCode,
  ifMatch: v.optional(IfMatch),
  ifNoneMatch: v.optional(IfMatch),
});
export const GetTranslationCommand = v.object({ ...InProject, keyId: Uuid, language: LanguageCode });
const ReadFilter = { status: v.optional(StatusFilter, 'approved') };
export const ReadLanguageCommand = v.object({ ...InProject, language: LanguageCode, ...ReadFilter });
export const ReadGroupCommand = v.object({ ...InProject, language: LanguageCode, group: LookupName, ...ReadFilter });
export const ReadKeyCommand = v.object({ ...InProject, language: LanguageCode, group: LookupName, key: LookupName, ...ReadFilter });

export const TranslationValue = v.object({
  key_id: Uuid,
  language: v.string(),
  value: v.string(),
  status: TranslationStatus,
  project_id: Uuid,
  /** Changes with every write of this value: its ETag, for If-Match (docs/decisions.md). */
  version: v.number(),
});
export type TranslationValue = v.InferOutput<typeof TranslationValue>;

/** A stored value as read: whether its key's source text changed after it (core/translations/outdated.ts). */
export const StoredTranslation = v.object({
  ...TranslationValue.entries,
  /** The key's source-language text changed after this value was written or marked up to date. */
  outdated: v.boolean(),
});
export type StoredTranslation = v.InferOutput<typeof StoredTranslation>;

/** One quality check's finding about a value (docs/quality.md). */
export const QualityWarning = v.object({ check: v.picklist(QUALITY_CHECKS), message: v.string() });

/** A written value and what the quality checks found in it against its source ([] when nothing). */
export const WrittenTranslation = v.object({
  ...TranslationValue.entries,
  /** Warnings of the checks against the key's value in the project's source language. */
  warnings: v.array(QualityWarning),
});
export type WrittenTranslation = v.InferOutput<typeof WrittenTranslation>;

/** status=all entry of the whole-language read. */
export const LanguageEntry = v.object({ value: v.string(), status: TranslationStatus, group: v.string() });
export type LanguageEntry = v.InferOutput<typeof LanguageEntry>;

/** status=all entry of the group read. */
export const GroupEntry = v.object({ value: v.string(), status: TranslationStatus });
export type GroupEntry = v.InferOutput<typeof GroupEntry>;

export const LanguageTranslations = v.object({
  project_id: Uuid,
  language: v.string(),
  status_filter: StatusFilter,
  count: v.number(),
  translations: v.record(v.string(), v.union([v.string(), LanguageEntry])),
});
export type LanguageTranslations = v.InferOutput<typeof LanguageTranslations>;

export const GroupTranslations = v.object({
  project_id: Uuid,
  language: v.string(),
  group: v.string(),
  status_filter: StatusFilter,
  count: v.number(),
  translations: v.record(v.string(), v.union([v.string(), GroupEntry])),
});
export type GroupTranslations = v.InferOutput<typeof GroupTranslations>;

export const KeyTranslation = v.object({
  key: v.string(),
  group: v.string(),
  language: v.string(),
  value: v.string(),
  status: TranslationStatus,
});
export type KeyTranslation = v.InferOutput<typeof KeyTranslation>;
