// The API keys tab's reads: a project's keys (never their values: only hashes are stored).
import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';

export type ApiKeyRow = { id: string; created_at: string; revoked_at: string | null };

export async function listApiKeys(deps: Pick<Deps, 'sql'>, projectId: string): Promise<ApiKeyRow[]> {
  const rows = await deps.sql<{ id: string; created_at: Date; revoked_at: Date | null }[]>`
    select id, created_at, revoked_at from api_keys where project_id = ${projectId} order by created_at, id`;
  return rows.map((r) => ({ id: r.id, created_at: new Date(r.created_at).toISOString(), revoked_at: r.revoked_at ? new Date(r.revoked_at).toISOString() : null }));
}

/** Refuses a key of another project before the revoke use-case (which acts by key id alone) runs. */
export async function assertApiKeyOfProject(deps: Pick<Deps, 'sql'>, projectId: string, apiKeyId: string): Promise<void> {
  const [row] = await deps.sql`select 1 from api_keys where id = ${apiKeyId} and project_id = ${projectId}`;
  if (!row) throw notFound('API key not found');
}

/** How many values removing a language would delete, for the confirmation. */
export async function valuesInLanguage(deps: Pick<Deps, 'sql'>, projectId: string, code: string): Promise<number> {
  const [row] = await deps.sql<{ count: number }[]>`
    select count(*)::int as count from translations where project_id = ${projectId} and language = ${code}`;
  return row!.count;
}
