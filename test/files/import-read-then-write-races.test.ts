// An import reads, decides, then writes; a DELETE of a key or a translator's PUT takes no project
// lock and can land in between. Whatever lands, the import's answer, charge and History describe
// what it wrote: it runs again on what is there now. It once answered and charged an update of a
// key deleted meanwhile (recording History for a value it never wrote), and with conflict=keep
// overwrote the translator's value. Real Postgres: the import is held after its read (its
// translation-unit charge waits on a second backend) while another request changes what it read.
import { describe, expect, it } from 'vitest';
import { usingRealPostgres } from '../support/test-database.ts';
import { useTestApp } from '../support/test-app.ts';
import { heldAtUnitCharge } from '../support/held-at-unit-charge.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();

describe.runIf(usingRealPostgres())('writes racing an import', () => {
  it('a key deleted while an import ran: the import runs again after the delete (a new key), no update or History on the deleted one', async () => {
    const sql = t.runtime.deps.sql;
    const p = await project(t, ['de']);
    const call = (file: Record<string, string>) => t.call(p.apiKey, 'POST', '/v1/import/de?status=approved', JSON.stringify(file));
    expect((await call({ 'home.title': 'Alt' })).status).toBe(200);
    const keyId = (await body(await p.get('/v1/keys'))).keys[0].id as string;
    const imported = await heldAtUnitCharge(sql, p.accountId, () => call({ 'home.title': 'Neu' }), async () => {
      const deleted = await t.call(p.apiKey, 'DELETE', `/v1/keys/${keyId}`);
      expect(deleted.status).toBeLessThan(300);
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    const answer = await body(imported);
    const [stored] = await sql<{ value: string }[]>`select value from translations where key_id = ${keyId} and language = 'de'`;
    const history = await sql<{ after: unknown }[]>`
      select after from domain_events where project_id = ${p.projectId} and type = 'translation.written' and entity_id = ${`${keyId}/de`}`;
    // As if it came after the delete: the name is free, so the import makes the key again.
    expect(answer).toMatchObject({ keys_created: 1, values_created: 1, values_updated: 0, translation_units: 1 });
    expect({ history: history.length, stored: stored!.value }).toEqual({ history: 0, stored: 'Alt' });
    const live = (await body(await p.get('/v1/keys'))).keys as { id: string; key: string }[];
    expect(live.map((k) => k.key)).toEqual(['home.title']);
    expect(live[0]!.id).not.toBe(keyId);
  });
  it("conflict=keep keeps a value a translator saved while the import ran (it counts it kept)", async () => {
    const sql = t.runtime.deps.sql;
    const p = await project(t, ['de']);
    const call = (file: Record<string, string>) => t.call(p.apiKey, 'POST', '/v1/import/de?status=draft&conflict=keep', JSON.stringify(file));
    expect((await call({ 'setup.first': 'x' })).status).toBe(200);
    const keyId = await p.key('home.title', 'home');
    const imported = await heldAtUnitCharge(sql, p.accountId, () => call({ 'home.title': 'Aus der Datei' }), async () => {
      await p.put(keyId, 'de', 'Vom Übersetzer', 'approved');
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    const [stored] = await sql<{ value: string; status: string }[]>`select value, status from translations where key_id = ${keyId} and language = 'de'`;
    expect(stored).toEqual({ value: 'Vom Übersetzer', status: 'approved' });
    expect(await body(imported)).toMatchObject({ values_created: 0, values_kept: 1, translation_units: 0 });
  });
  it('conflict=overwrite over a value a translator saved while the import ran: counted updated (History keeps the replaced text), not created', async () => {
    const sql = t.runtime.deps.sql;
    const p = await project(t, ['de']);
    const call = (file: Record<string, string>) => t.call(p.apiKey, 'POST', '/v1/import/de?status=draft&conflict=overwrite', JSON.stringify(file));
    expect((await call({ 'setup.first': 'x' })).status).toBe(200);
    const keyId = await p.key('home.title', 'home');
    const imported = await heldAtUnitCharge(sql, p.accountId, () => call({ 'home.title': 'Aus der Datei' }), async () => {
      await p.put(keyId, 'de', 'Vom Übersetzer', 'approved');
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    const [stored] = await sql<{ value: string; status: string }[]>`select value, status from translations where key_id = ${keyId} and language = 'de'`;
    expect(stored).toEqual({ value: 'Aus der Datei', status: 'draft' });
    expect(await body(imported)).toMatchObject({ values_created: 0, values_updated: 1, translation_units: 1 });
    const history = await sql<{ before: { value: string } | null }[]>`
      select before from domain_events where project_id = ${p.projectId} and type = 'translation.written' and entity_id = ${`${keyId}/de`} order by id`;
    expect(history.at(-1)?.before?.value).toBe('Vom Übersetzer');
  });
  it('a value changed while an overwriting import ran is counted and charged as it is when written (the file\'s text, now stored, is free)', async () => {
    const sql = t.runtime.deps.sql;
    const p = await project(t, ['de']);
    const call = (file: Record<string, string>) => t.call(p.apiKey, 'POST', '/v1/import/de?status=draft&conflict=overwrite', JSON.stringify(file));
    expect((await call({ 'home.title': 'Alt' })).status).toBe(200);
    const keyId = (await body(await p.get('/v1/keys'))).keys[0].id as string;
    const imported = await heldAtUnitCharge(sql, p.accountId, () => call({ 'home.title': 'Neu' }), async () => {
      await p.put(keyId, 'de', 'Neu', 'approved');
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    // As if it came after the reviewer: only the status changes, and a text already stored is free.
    expect(await body(imported)).toMatchObject({ values_created: 0, values_updated: 1, translation_units: 0 });
    const [stored] = await sql<{ value: string; status: string }[]>`select value, status from translations where key_id = ${keyId} and language = 'de'`;
    expect(stored).toEqual({ value: 'Neu', status: 'draft' });
  });

  it('run again after a race, the import locks what it reads first: a translator saving the same value again waits for it instead of racing it once more', async () => {
    const sql = t.runtime.deps.sql;
    const p = await project(t, ['de']);
    const call = (file: Record<string, string>) => t.call(p.apiKey, 'POST', '/v1/import/de?status=draft&conflict=overwrite', JSON.stringify(file));
    expect((await call({ 'home.title': 'Alt' })).status).toBe(200);
    const keyId = (await body(await p.get('/v1/keys'))).keys[0].id as string;
    const blockedBy = async (pid: number) =>
      (await sql`select 1 from pg_stat_activity where datname = current_database() and ${pid}::int = any(pg_blocking_pids(pid))`).length > 0;
    // What the database's sessions were doing, for a wait that timed out (a rare failure in CI).
    const sessions = async () =>
      JSON.stringify(await sql`
        select pid, state, wait_event_type, wait_event, pg_blocking_pids(pid) as blocked_by, left(query, 80) as query
        from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
    const waitUntil = async (check: () => Promise<boolean>, what: string) => {
      const deadline = Date.now() + 10_000;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}; sessions: ${await sessions()}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    // Whether another transaction holds the value's row: a locking read that will not wait fails.
    const valueLocked = () =>
      sql
        .begin(async (tx) => {
          await tx`select 1 from translations where key_id = ${keyId} and language = 'de' for no key update nowait`;
          throw new Error('not locked'); // rolls the probe's own lock back
        })
        .catch((error: { code?: string; message?: string }) => error.code === '55P03');
    const [first, second] = [await sql.reserve(), await sql.reserve()];
    try {
      const hold = async (holder: typeof first) => {
        await holder`begin`;
        const [{ pid }] = (await holder`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
        return pid;
      };
      // The first attempt, held at its charge after its read, loses to a translator's save.
      const firstPid = await hold(first);
      await first`select used from translation_unit_usage where account_id = ${p.accountId} for update`;
      const imported = call({ 'home.title': 'Neu' });
      await waitUntil(() => blockedBy(firstPid), 'the import waits at its charge');
      await p.put(keyId, 'de', 'Vom Übersetzer', 'review');
      // The second attempt is held at its charge too: this lock queues behind the first attempt's.
      // It must be seen waiting before the first hold ends. PostgreSQL queues a row's lockers only
      // while they sleep: a lock asked in the moment between that commit and the first attempt
      // waking up finds the row free and takes it, and the first attempt, not the second, would
      // then wait here (what failed in CI: the import held at its charge without the value's lock).
      const secondPid = await hold(second);
      const queued = second`select used from translation_unit_usage where account_id = ${p.accountId} for update`.execute();
      await waitUntil(
        async () => (await sql<{ waiting: boolean }[]>`select cardinality(pg_blocking_pids(${secondPid}::int)) > 0 as waiting`)[0]!.waiting,
        'the second hold queues behind the first attempt',
      );
      await first`commit`;
      await queued;
      await waitUntil(() => blockedBy(secondPid), 'the import, run again, waits at its charge');
      await waitUntil(valueLocked, 'the import, run again, holds the value it read');
      // A save of the value now waits for the import, which has locked it: it lands after.
      let settled: string | null = null;
      const saved = p.put(keyId, 'de', 'Noch einmal', 'review').then(
        () => void (settled = 'answered 200'),
        (error: unknown) => {
          settled = String(error);
          throw error;
        },
      );
      await waitUntil(async () => {
        if (settled !== null) throw new Error(`the second save did not wait for the import: ${settled}`);
        return (await sql`select 1 from pg_stat_activity where datname = current_database() and cardinality(pg_blocking_pids(pid)) > 0 and not ${secondPid}::int = any(pg_blocking_pids(pid))`).length > 0;
      }, 'the second save waits for the import');
      await second`commit`;
      const answer = await imported;
      expect(answer.status, await answer.clone().text()).toBe(200);
      expect(await body(answer)).toMatchObject({ values_created: 0, values_updated: 1, translation_units: 1 });
      await saved;
      const [stored] = await sql<{ value: string }[]>`select value from translations where key_id = ${keyId} and language = 'de'`;
      expect(stored!.value).toBe('Noch einmal');
      const history = await sql<{ before: { value: string } | null; after: { value: string } }[]>`
        select before, after from domain_events where project_id = ${p.projectId} and type = 'translation.written' and entity_id = ${`${keyId}/de`} order by id`;
      expect(history.slice(-3).map((e) => `${e.before?.value} -> ${e.after.value}`)).toEqual(['Alt -> Vom Übersetzer', 'Vom Übersetzer -> Neu', 'Neu -> Noch einmal']);
    } finally {
      for (const holder of [first, second]) {
        await holder`rollback`.catch(() => undefined);
        holder.release();
      }
    }
  });
});
