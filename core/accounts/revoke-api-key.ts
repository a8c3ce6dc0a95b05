import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { RevokeApiKeyCommand } from './schemas.ts';

/** Revokes a key: 401 from then on, at once in this process, within the cache TTL elsewhere. */
export const revokeApiKey = useCase(RevokeApiKeyCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'apiKeys'>, input): Promise<void> => {
  await transaction(deps, async (tx) => {
    const [row] = await tx.sql<{ project_id: string; was_revoked: boolean }[]>`
      update api_keys k set revoked_at = coalesce(k.revoked_at, now())
      from api_keys old where k.id = ${input.apiKeyId} and old.id = k.id
      returning k.project_id, old.revoked_at is not null as was_revoked`;
    if (!row) throw notFound('API key not found');
    // Revoking twice is a no-op that answers the same, and records nothing the second time.
    if (!row.was_revoked) {
      tx.record({ type: 'api_key.revoked', projectId: row.project_id, actor: input.actor, entity: { type: 'api_key', id: input.apiKeyId } });
    }
  });
  deps.apiKeys.evictKey(input.apiKeyId);
});
