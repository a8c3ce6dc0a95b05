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
});
