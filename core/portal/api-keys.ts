// The API keys tab's checks (its list is the admin API's read, core/accounts/admin-reads.ts).
import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';

/** Refuses a key of another project before the revoke use-case (which acts by key id alone) runs. */
export async function assertApiKeyOfProject(deps: Pick<Deps, 'sql'>, projectId: string, apiKeyId: string): Promise<void> {
  const [row] = await deps.sql`select 1 from api_keys where id = ${apiKeyId} and project_id = ${projectId}`;
  if (!row) throw notFound('API key not found');
}
