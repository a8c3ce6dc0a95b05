// A statement never outlives its request by much: Postgres ends it at DATABASE_STATEMENT_TIMEOUT_MS
// (statement_timeout), frees the connection, and the caller gets the 500 envelope; the builder and
// migrations raise the deadline for their own transactions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/test-app.ts';

// Real PostgreSQL only: pglite-socket does not apply startup parameters, and PGlite's one backend
// runs inside this process's event loop with no signal to cancel a statement by.
describe.skipIf(!process.env.DATABASE_URL)('statement deadline (real PostgreSQL)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    app = await startTestApp({ env: { DATABASE_STATEMENT_TIMEOUT_MS: '300' } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a slow statement is ended by the database at the deadline, and the pool serves on', async () => {
    const { sql } = app.runtime.deps;
    const [setting] = await sql<{ statement_timeout: string }[]>`show statement_timeout`;
    expect(setting!.statement_timeout).toBe('300ms');
    const started = performance.now();
    await expect(sql`select pg_sleep(10)`).rejects.toMatchObject({ code: '57014' });
    expect(performance.now() - started).toBeLessThan(2_000);
    const p = await app.newProject('team');
    expect((await app.call(p.apiKey, 'GET', '/v1/keys')).status).toBe(200);
  });

  it('a transaction that needs longer raises it for itself only', async () => {
    const { sql } = app.runtime.deps;
    const inside = await sql.begin(async (tx) => {
      await tx`set local statement_timeout = '5min'`;
      return (await tx<{ statement_timeout: string }[]>`show statement_timeout`)[0]!.statement_timeout;
    });
    expect(inside).toBe('5min');
    expect((await sql<{ statement_timeout: string }[]>`show statement_timeout`)[0]!.statement_timeout).toBe('300ms');
  });
});
