import type { Deps } from '../deps.ts';
import type { TransactionSql, Sql } from '../db/client.ts';
import { notFound } from '../errors.ts';
import { generateApiKey, hashApiKey } from '../auth/api-key-format.ts';
import type { CreatedApiKey } from './schemas.ts';

/** Inserts a new key for a project; the plain key is returned once and never stored. */
export async function insertApiKey(sql: Sql | TransactionSql, projectId: string): Promise<CreatedApiKey> {
  const key = generateApiKey();
  const [row] = await sql<{ id: string }[]>`
    insert into api_keys (project_id, key_hash) values (${projectId}, ${hashApiKey(key)}) returning id`;
  return { id: row!.id, key, project_id: projectId };
}

export async function createApiKey(deps: Pick<Deps, 'sql'>, projectId: string): Promise<CreatedApiKey> {
  return deps.sql.begin(async (tx) => {
    const [project] = await tx`select 1 from projects where id = ${projectId}`;
    if (!project) throw notFound('Project not found');
    return insertApiKey(tx, projectId);
  });
}
