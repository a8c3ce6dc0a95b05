import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { keyNotFound } from '../keys/update-key.ts';

export const translationNotFound = (language: string) => notFound(`This key has no '${language}' translation`);

/** Permanently deletes one value of a live key of the project. */
export async function deleteTranslation(
  deps: Pick<Deps, 'sql'>,
  projectId: string,
  keyId: string,
  language: string,
): Promise<void> {
  const [row] = await deps.sql<{ key_found: boolean; removed: boolean }[]>`
    with live_key as (
      select id from translation_keys where id = ${keyId} and project_id = ${projectId} and deleted_at is null
    ), removed as (
      delete from translations t using live_key
      where t.key_id = live_key.id and t.language = ${language} and t.project_id = ${projectId}
      returning 1
    )
    select exists (select 1 from live_key) as key_found, exists (select 1 from removed) as removed`;
  if (!row?.key_found) throw keyNotFound();
  if (!row.removed) throw translationNotFound(language);
}
