// API keys' secrets and revocation: a key revoked while a lookup of it is in flight is not cached
// back for the TTL, and a create's first answer kept for Idempotency-Key holds no readable secret
// (it is sealed with the client's token, stored only as its hash); the retry still gets it.
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, useTestApp } from '../support/test-app.ts';
import { createApiKeyVerifier } from '../../core/auth/api-key-verifier.ts';
import { createMemoryLogger } from '../../core/log.ts';
import type { Sql } from '../../core/db/client.ts';

const t = useTestApp();

describe('revocation', () => {
  it('a key revoked while its lookup is in flight is refused at once afterwards, not cached back for the TTL', async () => {
    const p = await t.newProject();
    // A database whose answers arrive late: the lookup reads the row (not yet revoked), the revoke
    // commits and evicts the key in this process, then the lookup's answer arrives.
    let gate: Promise<void> | null = null;
    let release!: () => void;
    let readRow!: () => void;
    const rowRead = new Promise<void>((r) => (readRow = r));
    const sql = new Proxy(t.runtime.deps.sql, {
      apply(target, self, args) {
        const gated = gate;
        return (async () => {
          const result = await Reflect.apply(target, self, args);
          if (gated) {
            readRow();
            await gated;
          }
          return result;
        })();
      },
    }) as Sql;
    const verifier = createApiKeyVerifier({ sql, log: createMemoryLogger(), ttlMs: 60_000, lastUsed: { touch() {}, async settled() {} } });

    gate = new Promise<void>((r) => (release = r));
    const inFlight = verifier.verify(p.apiKey);
    await rowRead;
    gate = null;
    // The revoke: committed in the database, then evicted in this process (as revokeApiKey does).
    expect((await t.admin('DELETE', `/api-keys/${p.apiKeyId}`)).status).toBe(204);
    verifier.evictKey(p.apiKeyId);
    release();
    await inFlight; // the request that was already in flight may be served

    // Every later request must be refused: the key is revoked and was evicted here.
    await expect(verifier.verify(p.apiKey)).rejects.toMatchObject({ message: 'Invalid API key' });
  });
});

describe('API keys are stored only as hashes', () => {
  it('creating an API key with Idempotency-Key keeps no readable key or token in idempotency_keys; the retry gets the same key', async () => {
    const p = await t.newProject('team');
    const token = `retry-${crypto.randomUUID()}`;
    const send = () =>
      t.call(undefined, 'POST', `/admin/v1/projects/${p.projectId}/api-keys`, { kind: 'live' }, { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Idempotency-Key': token });
    const res = await send();
    expect(res.status).toBe(201);
    const { key } = (await res.json()) as { key: string };
    const stored = await t.runtime.deps.sql`select body from idempotency_keys where body like ${'%' + key + '%'}`;
    expect(stored.length).toBe(0);
    expect(await t.runtime.deps.sql`select 1 from idempotency_keys where key = ${token}`).toHaveLength(0);
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { key: string }).key).toBe(key);
  });

  it('creating a project with Idempotency-Key keeps its first API key unreadable in idempotency_keys', async () => {
    const account = (await (await t.admin('POST', '/accounts', { name: 'idem', plan: 'team' })).json()) as { id: string };
    const res = await t.call(undefined, 'POST', `/admin/v1/accounts/${account.id}/projects`, { name: 'p' }, {
      Authorization: `Bearer ${ADMIN_TOKEN}`,
      'Idempotency-Key': `review-${crypto.randomUUID()}`,
    });
    expect(res.status).toBe(201);
    const { api_key } = (await res.json()) as { api_key: { key: string } };
    const stored = await t.runtime.deps.sql`select body from idempotency_keys where body like ${'%' + api_key.key + '%'}`;
    expect(stored.length).toBe(0);
  });
});
