import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { transaction, type Tx } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import type { Actor } from '../actor.ts';
import { generateApiKey, hashApiKey } from '../auth/api-key-format.ts';
import { CreateApiKeyCommand, type CreatedApiKey } from './schemas.ts';

/** Inserts a new key for a project; the plain key is returned once and never stored (nor in its event). */
export async function insertApiKey(tx: Tx, projectId: string, actor: Actor): Promise<CreatedApiKey> {
  const key = generateApiKey();
  const [row] = await tx.sql<{ id: string }[]>`
    insert into api_keys (project_id, key_hash) values (${projectId}, ${hashApiKey(key)}) returning id`;
  tx.record({ type: 'api_key.created', projectId, actor, entity: { type: 'api_key', id: row!.id } });
  return { id: row!.id, key, project_id: projectId };
}

export const createApiKey = useCase(CreateApiKeyCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<CreatedApiKey> =>
  transaction(deps, async (tx) => {
    const [project] = await tx.sql`select 1 from projects where id = ${input.projectId}`;
    if (!project) throw notFound('Project not found');
    return insertApiKey(tx, input.projectId, input.actor);
  }),
);
