import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';

/** Revokes a key: 401 from then on, at once in this process, within the cache TTL elsewhere. */
export async function revokeApiKey(deps: Pick<Deps, 'sql' | 'apiKeys'>, apiKeyId: string): Promise<void> {
  const rows = await deps.sql`
    update api_keys set revoked_at = coalesce(revoked_at, now()) where id = ${apiKeyId} returning id`;
  if (rows.length === 0) throw notFound('API key not found');
  deps.apiKeys.evictKey(apiKeyId);
}
