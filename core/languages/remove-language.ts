import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import type { RemovedLanguage } from './schemas.ts';

export const languageNotRegistered = (code: string) => notFound(`Language '${code}' is not registered for this project`);

/**
 * Unregisters a language and permanently deletes its values across all keys (also those kept for
 * soft-deleted keys: they are counted in translations_deleted).
 */
export async function removeLanguage(deps: Pick<Deps, 'sql'>, projectId: string, code: string): Promise<RemovedLanguage> {
  return deps.sql.begin(async (tx) => {
    const [registered] = await tx`
      select 1 from project_languages where project_id = ${projectId} and code = ${code} for update`;
    if (!registered) throw languageNotRegistered(code);
    const deleted = await tx`delete from translations where project_id = ${projectId} and language = ${code} returning 1`;
    await tx`delete from project_languages where project_id = ${projectId} and code = ${code}`;
    return { project_id: projectId, code, translations_deleted: deleted.length, deleted: true };
  });
}
