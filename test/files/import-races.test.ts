// An import holds its project's lock for its whole transaction (core/projects/lock-project.ts), and a
// bulk action its keys' (core/keys/key-selection.ts). Writes that do not take those locks must never
// wait for them, or they close a cycle as soon as the lock holder reaches a row they hold: Postgres
// then ends one side with a deadlock, a 500. Found by the randomized mix
// (test/faults/concurrent-mix.test.ts); pinned here deterministically on real Postgres, with the
// import held open in the middle of its transaction (after its lock, before its writes) by a second
// backend holding its account's translation-unit row, or the bulk action held by a second backend's
// foreign-key-like lock on a key. On PGlite one open transaction blocks everything, so these need
// real Postgres.
import { describe, expect, it } from 'vitest';
import { usingRealPostgres } from '../support/test-database.ts';
import { useTestApp } from '../support/test-app.ts';
import { body, project, type Project } from '../translations/helpers.ts';
import { BATCH_LOCK_TIMEOUT_MS } from '../../core/db/statement-batches.ts';

const t = useTestApp();

async function waitFor(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Backends of this database that `pid` blocks. */
async function blockedBy(pid: number): Promise<number[]> {
  const rows = await t.runtime.deps.sql<{ pid: number }[]>`
    select pid from pg_stat_activity where datname = current_database() and ${pid}::int = any(pg_blocking_pids(pid))`;
  return rows.map((r) => r.pid);
}

const importFile = (p: Project, language: string, file: Record<string, string>) =>
  t.call(p.apiKey, 'POST', `/v1/import/${language}?status=approved`, JSON.stringify(file));

/**
 * Starts an import of `file` and holds it after it took the project lock and before it writes: a
 * second backend holds the account's translation-unit row, which the import charges on its way.
 * `during` runs while it is held and returns the request it started (not awaited); the hold then ends.
 */
async function duringImport(p: Project, language: string, file: Record<string, string>, during: (importPid: number) => Promise<{ started: Promise<Response>; answered: boolean }>) {
  const sql = t.runtime.deps.sql;
  // A first import makes the account's row for this cycle.
  expect((await importFile(p, language, { 'setup.first': 'x' })).status).toBe(200);
  const holder = await sql.reserve();
  try {
    await holder`begin`;
    const [{ pid: holderPid }] = (await holder`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
    await holder`select used from translation_unit_usage where account_id = ${p.accountId} for update`;
    const pending = importFile(p, language, file);
    let importPid = 0;
    await waitFor(async () => {
      [importPid = 0] = await blockedBy(holderPid);
      return importPid !== 0;
    }, 'the import to wait on its charge');
    const { started, answered } = await during(importPid);
    await holder`commit`;
    return { imported: await pending, result: await started, answered };
  } finally {
    holder.release();
  }
}

/**
 * Waits until `answer` settles, or until it has waited on `pid` for longer than a batch's lock
 * timeout (core/db/statement-batches.ts): by then it is the write's own statement that waits, with
 * no timeout, as a lone write or a conditional one always does. True when it settled.
 */
async function answeredOrBlocked(answer: Promise<Response>, pid: number): Promise<boolean> {
  let settled = false;
  void answer.finally(() => (settled = true));
  let since = 0;
  await waitFor(async () => {
    if (settled) return true;
    if ((await blockedBy(pid)).length === 0) since = 0;
    else since ||= Date.now();
    return since > 0 && Date.now() - since > 3 * BATCH_LOCK_TIMEOUT_MS;
  }, 'the write to end or to wait on the import');
  return settled;
}

describe.runIf(usingRealPostgres())('writes racing an import that holds its project lock', () => {
  it('a create-only PUT of a first source-language value neither waits for the import nor deadlocks with it', async () => {
    const p = await project(t, ['en', 'de']);
    const k = await p.key('home.title', 'home');
    const file = { 'home.title': 'from the import', 'home.other': 'x' };
    const { imported, result: put, answered } = await duringImport(p, 'en', file, async (importPid) => {
      // The first en value of a key inserts its translation-memory row (migration 014), whose
      // foreign key to projects was checked FOR KEY SHARE of the project row until migration 045
      // dropped it; kept so that no lock a source value takes ever waits for an import's project.
      const put = t.call(p.apiKey, 'PUT', `/v1/keys/${k}/translations/en`, { value: 'from the put', status: 'approved' }, { 'If-None-Match': '*' });
      return { started: put, answered: await answeredOrBlocked(put, importPid) };
    });
    expect([put.status, imported.status]).toEqual([200, 200]);
    expect(answered, 'the PUT answered while the import held its project').toBe(true);
    // The PUT committed first; the import, released later, overwrote it.
    expect((await body(await p.get('/v1/translations/en/home/home.title'))).value).toBe('from the import');
  });

  it('a plain PUT of a first source-language value neither waits for the import nor deadlocks with it', async () => {
    const p = await project(t, ['en']);
    const k = await p.key('home.title', 'home');
    const file = { 'home.title': 'from the import', 'home.other': 'x' };
    const { imported, result: put, answered } = await duringImport(p, 'en', file, async (importPid) => {
      const put = t.call(p.apiKey, 'PUT', `/v1/keys/${k}/translations/en`, { value: 'from the put', status: 'approved' });
      return { started: put, answered: await answeredOrBlocked(put, importPid) };
    });
    expect([put.status, imported.status]).toEqual([200, 200]);
    expect(answered, 'the PUT answered while the import held its project').toBe(true);
    expect((await body(await p.get('/v1/translations/en/home/home.title'))).value).toBe('from the import');
  });

  it('a key created under a name the import is about to create: both succeed, the import writes onto it', async () => {
    // No key limit: creation takes no project lock (core/keys/key-creations.ts).
    const p = await project(t, ['en'], 'team');
    const file = { 'home.new': 'from the import', 'home.other': 'x' };
    const { imported, result: created, answered } = await duringImport(p, 'en', file, async (importPid) => {
      const created = t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.new', group_name: 'home' });
      return { started: created, answered: await answeredOrBlocked(created, importPid) };
    });
    expect([created.status, imported.status], await imported.clone().text()).toEqual([201, 200]);
    expect(answered, 'the creation answered while the import held its project').toBe(true);
    // The import saw the key once it was there: it created one key (home.other) and two values.
    expect(await body(imported)).toMatchObject({ keys_created: 1, values_created: 2, values_updated: 0 });
    const listed = await body(await p.get('/v1/keys?group=home'));
    expect(listed.keys.map((key: { key: string }) => key.key)).toEqual(['home.new', 'home.other']);
    expect((await body(await p.get('/v1/translations/en/home/home.new?status=all'))).value).toBe('from the import');
  });

  it('with a key limit, creation counts under the project lock: it queues behind the import and finds the name taken', async () => {
    const p = await project(t, ['en'], 'solo');
    const { imported, result: created, answered } = await duringImport(p, 'en', { 'home.new': 'from the import' }, async (importPid) => {
      const created = t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.new', group_name: 'home' });
      return { started: created, answered: await answeredOrBlocked(created, importPid) };
    });
    expect(answered, 'the creation waited for the import').toBe(false);
    expect([created.status, imported.status]).toEqual([409, 200]);
  });

  it('an import and a bulk status change of the same keys both succeed, whatever order their locks come in', async () => {
    const p = await project(t, ['en'], 'team');
    // Two keys in id order: the bulk action locks `first`, then `second`.
    const [first, second] = (await Promise.all(['home.a', 'home.b'].map(async (name) => ({ name, id: await p.key(name, 'home') })))).sort((a, b) =>
      a.id < b.id ? -1 : 1,
    ) as [{ name: string; id: string }, { name: string; id: string }];
    await p.put(second.id, 'en', 'before', 'draft');
    const sql = t.runtime.deps.sql;
    const holder = await sql.reserve();
    try {
      // A foreign-key check in flight on `second` (FOR KEY SHARE, as a value being inserted takes it).
      await holder`begin`;
      const [{ pid: holderPid }] = (await holder`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
      await holder`select 1 from translation_keys where id = ${second.id} for key share`;
      const bulk = t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [first.id, second.id], languages: ['en'], status: 'approved' });
      await answeredOrBlocked(bulk, holderPid);
      // The import updates `second`'s value and inserts `first`'s, whose check needs `first`'s key.
      const imported = importFile(p, 'en', { [first.name]: 'imported', [second.name]: 'imported' });
      const [bulkPid] = (
        await sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database() and ${holderPid}::int = any(pg_blocking_pids(pid))`
      ).map((r) => r.pid);
      if (bulkPid !== undefined) await answeredOrBlocked(imported, bulkPid);
      await holder`commit`;
      expect([(await bulk).status, (await imported).status]).toEqual([200, 200]);
    } finally {
      holder.release();
    }
  });
});
