import * as v from 'valibot';
import { GroupName, Uuid } from '../validation.ts';
import { InProject, WriteInProject } from '../commands.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { StatusFilter, TranslationStatus } from '../translations/schemas.ts';
import { DEFAULT_GROUP } from '../keys/schemas.ts';
import { FORMATS } from '../formats/index.ts';
import { QUALITY_CHECKS } from '../quality/check-translation.ts';
import type { FormatId } from '../formats/types.ts';

const FORMAT_IDS = Object.keys(FORMATS) as [FormatId, ...FormatId[]];

export const FormatName = v.picklist(FORMAT_IDS, `format must be one of ${FORMAT_IDS.join(', ')}`);
export const ConflictPolicy = v.picklist(['overwrite', 'keep', 'fail'], 'conflict must be overwrite, keep or fail');
export type ConflictPolicy = v.InferOutput<typeof ConflictPolicy>;
const BooleanFlag = v.pipe(
  v.picklist(['true', 'false'], 'dry_run must be true or false'),
  v.transform((s) => s === 'true'),
);

// Query strings tolerate unknown parameters; the known ones are checked.
export const ImportQuery = v.object({
  format: v.optional(FormatName, 'json'),
  status: v.optional(TranslationStatus, 'draft'),
  conflict: v.optional(ConflictPolicy, 'overwrite'),
  dry_run: v.optional(BooleanFlag, 'false'),
  /** The group of created keys whose name has no usable group prefix. */
  group: v.optional(GroupName, DEFAULT_GROUP),
});

export const ExportQuery = v.object({
  format: v.optional(FormatName, 'json'),
  status: v.optional(StatusFilter, 'approved'),
  group: v.optional(v.string()),
  /** The source language (XLIFF's <source>); required by the formats that carry one. */
  source: v.optional(LanguageCode),
});

export const ImportCommand = v.object({
  ...WriteInProject,
  language: LanguageCode,
  format: FormatName,
  status: TranslationStatus,
  conflict: ConflictPolicy,
  dryRun: v.boolean(),
  group: GroupName,
  body: v.instance(Uint8Array),
});

export const ExportCommand = v.object({
  ...InProject,
  language: LanguageCode,
  format: FormatName,
  status: StatusFilter,
  group: v.optional(v.string()),
  source: v.optional(LanguageCode),
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
  translation_units: v.number(),
  warnings: v.array(v.string()),
  /** The quality checks' warnings of the values written (docs/quality.md): how many, and the first 100. */
  quality_warnings: v.object({
    count: v.number(),
    values: v.array(v.object({ key: v.string(), check: v.picklist(QUALITY_CHECKS), message: v.string() })),
  }),
});
export type ImportResult = v.InferOutput<typeof ImportResult>;
