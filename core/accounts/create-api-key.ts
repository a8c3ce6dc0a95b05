import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { transaction, type Tx } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import type { Actor } from '../actor.ts';
import { generateApiKey, hashApiKey, type ApiKeyKind } from '../auth/api-key-format.ts';
import { CreateApiKeyCommand, type CreatedApiKey } from './api-key-schemas.ts';

export type NewApiKey = {
  kind?: ApiKeyKind;
  name?: string | undefined;
  allowed_origins?: string[] | undefined;
  allowed_languages?: string[] | undefined;
};

/** Inserts a new key for a project; the plain key is returned once and never stored (nor in its event). */
export async function insertApiKey(tx: Tx, projectId: string, actor: Actor, options: NewApiKey = {}): Promise<CreatedApiKey> {
  const kind = options.kind ?? 'live';
  const key = generateApiKey(kind);
  const name = options.name ?? null;
  const origins = options.allowed_origins ?? null;
  const languages = options.allowed_languages ?? null;
  const [row] = await tx.sql<{ id: string; created_at: string }[]>`
    insert into api_keys (project_id, key_hash, kind, name, last_four, allowed_origins, allowed_languages)
    values (${projectId}, ${hashApiKey(key)}, ${kind}, ${name}, ${key.slice(-4)}, ${origins}::text[], ${languages}::text[])
    returning id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at`;
  const after = { kind, name, allowed_origins: origins, allowed_languages: languages };
  tx.record({ type: 'api_key.created', projectId, actor, entity: { type: 'api_key', id: row!.id }, after });
  return { id: row!.id, key, project_id: projectId, name, kind, allowed_origins: origins, allowed_languages: languages, created_at: row!.created_at };
}

export const createApiKey = useCase(CreateApiKeyCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<CreatedApiKey> =>
  transaction(deps, async (tx) => {
    const [project] = await tx.sql`select 1 from projects where id = ${input.projectId}`;
    if (!project) throw notFound('Project not found');
    return insertApiKey(tx, input.projectId, input.actor, input);
  }),
);
