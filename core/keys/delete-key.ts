import type { Deps } from '../deps.ts';
import { keyNotFound } from './update-key.ts';

/** Soft delete: the key and its values stop being served; the admin API can restore them. */
export async function deleteKey(deps: Pick<Deps, 'sql'>, projectId: string, keyId: string): Promise<void> {
  const rows = await deps.sql`
    update translation_keys set deleted_at = now(), updated_at = now()
    where id = ${keyId} and project_id = ${projectId} and deleted_at is null
    returning id`;
  if (rows.length === 0) throw keyNotFound();
}
