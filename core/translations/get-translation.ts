import type { Deps } from '../deps.ts';
import { useCase } from '../use-case.ts';
import { keyNotFound } from '../keys/update-key.ts';
import { translationNotFound } from './delete-translation.ts';
import { GetTranslationCommand, type TranslationStatus, type TranslationValue } from './schemas.ts';

type Row = { key_found: boolean; value: string | null; status: TranslationStatus | null; version: string | null };

/** One value of a live key of the project, whatever its status, with its version (the ETag a write's If-Match names). */
export const getTranslation = useCase(GetTranslationCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<TranslationValue> => {
  const { projectId, keyId, language } = input;
  const [row] = await deps.sql<Row[]>`
    select exists (select 1 from translation_keys where id = ${keyId} and project_id = ${projectId} and deleted_at is null) as key_found,
           t.value, t.status, t.version::text as version
    from (select 1) as one
    left join translations t on t.key_id = ${keyId} and t.language = ${language} and t.project_id = ${projectId}
      and exists (select 1 from translation_keys where id = ${keyId} and project_id = ${projectId} and deleted_at is null)`;
  if (!row?.key_found) throw keyNotFound();
  if (row.value === null || row.status === null) throw translationNotFound(language);
  return { key_id: keyId, language, value: row.value, status: row.status, project_id: projectId, version: Number(row.version) };
});
