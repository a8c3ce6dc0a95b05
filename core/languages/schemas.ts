import * as v from 'valibot';
import { Uuid } from '../validation.ts';
import { InProject, WriteInProject } from '../commands.ts';
import { LanguageCode } from './language-code.ts';

export const AddLanguageInput = v.strictObject({ code: LanguageCode });

export const ListLanguagesCommand = v.object({ ...InProject });
export const LanguageCommand = v.object({ ...WriteInProject, code: LanguageCode });

/**
 * What a confirmation showed of a language's values (core/languages/value-counts.ts): their count,
 * and a digest of every value's key and version ('none' for no values).
 */
export const ShownValues = v.object({ values: v.pipe(v.number(), v.integer(), v.minValue(0)), digest: v.pipe(v.string(), v.maxLength(64)) });
export type ShownValues = v.InferOutput<typeof ShownValues>;
/** `shown`: remove only if the language still holds exactly the values its confirmation counted. */
export const RemoveLanguageCommand = v.object({ ...LanguageCommand.entries, shown: v.optional(ShownValues) });

export const LanguageList = v.object({
  project_id: Uuid,
  languages: v.array(v.object({ code: v.string(), added_at: v.pipe(v.string(), v.isoTimestamp()) })),
  count: v.number(),
});
export type LanguageList = v.InferOutput<typeof LanguageList>;

export const AddedLanguage = v.object({ project_id: Uuid, code: v.string(), added: v.literal(true) });
export type AddedLanguage = v.InferOutput<typeof AddedLanguage>;

export const RemovedLanguage = v.object({
  project_id: Uuid,
  code: v.string(),
  translations_deleted: v.number(),
  deleted: v.literal(true),
});
export type RemovedLanguage = v.InferOutput<typeof RemovedLanguage>;
