import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { InProject } from '../commands.ts';
import { useCase } from '../use-case.ts';
import { Uuid } from '../validation.ts';
import { LanguageCode } from '../languages/language-code.ts';
import type { TranslationStatus } from './schemas.ts';

export const ValuesOfKeysCommand = v.object({
  ...InProject,
  keyIds: v.pipe(v.array(Uuid), v.maxLength(500)),
  languages: v.pipe(v.array(LanguageCode), v.maxLength(50)),
});

export type KeyValue = { value: string; status: TranslationStatus; version: number; updated_at: string };
/** Key id -> language -> value, for the keys and languages asked (a missing value is absent). */
export type ValuesOfKeys = Record<string, Record<string, KeyValue>>;

/**
 * The values of some keys (one page of a listing) in some languages, with their versions: one
 * query on the (key_id, language) primary key. Keys of another project have no values here.
 */
export const valuesOfKeys = useCase(ValuesOfKeysCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<ValuesOfKeys> => {
  const out: ValuesOfKeys = {};
  if (input.keyIds.length === 0 || input.languages.length === 0) return out;
  const rows = await deps.sql<{ key_id: string; language: string; value: string; status: TranslationStatus; version: string; updated_at: Date }[]>`
    select key_id, language, value, status, version::text as version, updated_at from translations
    where project_id = ${input.projectId} and key_id = any(${input.keyIds}::uuid[]) and language = any(${input.languages}::text[])`;
  for (const r of rows) {
    (out[r.key_id] ??= {})[r.language] = { value: r.value, status: r.status, version: Number(r.version), updated_at: new Date(r.updated_at).toISOString() };
  }
  return out;
});
