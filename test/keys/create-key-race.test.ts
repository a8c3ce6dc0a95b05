// POST /v1/keys on a plan with a key limit (the locked path, core/keys/create-key.ts) when its
// insert was skipped (name taken, or limit reached) and a DELETE /v1/keys/{id}, which takes no
// project lock, commits a soft delete before the request says why. The reason comes from the
// insert's own statement now; a follow-up question with a fresh snapshot found neither reason
// standing and answered 500 ('key neither created nor refused').
//
// The interleaving is made exact: when the create asks its follow-up question, a separate backend
// (psql, a process of its own, so the event loop is not needed) commits the soft delete that a
// concurrent DELETE /v1/keys/{id} would. Real Postgres only (PGlite runs one statement at a time).
import { describe, expect, it } from 'vitest';
import { usingRealPostgres } from '../support/test-database.ts';
import { useTestApp } from '../support/test-app.ts';
import { databaseUrl, onQuery } from '../support/commit-in-another-backend.ts';

const t = useTestApp();

describe.runIf(usingRealPostgres())('POST /v1/keys (limited plan) racing a DELETE /v1/keys/{id}', () => {
  it('at the key limit, a key deleted while the refused create checks why: 201 or 402, never a 500', async () => {
    const p = await t.newProject('free');
    const sql = t.runtime.deps.sql;
    await sql`
      insert into translation_keys (project_id, key, group_name)
      select ${p.projectId}, 'k' || g, 'Default' from generate_series(1, 250) g`;
    const [victim] = await sql<{ id: string }[]>`select id from translation_keys where project_id = ${p.projectId} and key = 'k1'`;
    const url = await databaseUrl(t.runtime.deps.sql);
    await t.call(p.apiKey, 'GET', '/v1/keys?limit=1'); // API key verified and cached first
    // The refused insert's follow-up: "is the name taken?" (then the capacity count).
    const stop = onQuery(t.runtime.deps.sql, /select 1 from translation_keys where project_id = \$1 and key = \$2 and deleted_at is null/, url,
      `update translation_keys set deleted_at = now(), updated_at = now() where id = '${victim!.id}'`);
    let res: Response;
    try {
      res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'one.more' });
    } finally {
      stop();
    }
    const text = await res.text();
    expect([201, 402], text).toContain(res.status);
    const [{ n }] = (await sql`select count(*)::int as n from translation_keys where project_id = ${p.projectId} and deleted_at is null`) as unknown as [{ n: number }];
    expect(n).toBeLessThanOrEqual(250);
  });

  it('a taken name freed while the refused create checks why: 409 or 201, never a 500', async () => {
    const p = await t.newProject('free');
    const first = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'dup.name' });
    expect(first.status).toBe(201);
    const { id } = (await first.json()) as { id: string };
    const url = await databaseUrl(t.runtime.deps.sql);
    const stop = onQuery(t.runtime.deps.sql, /select 1 from translation_keys where project_id = \$1 and key = \$2 and deleted_at is null/, url,
      `update translation_keys set deleted_at = now(), updated_at = now() where id = '${id}'`);
    let res: Response;
    try {
      res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'dup.name' });
    } finally {
      stop();
    }
    expect([201, 409], await res.text()).toContain(res.status);
  });
});
