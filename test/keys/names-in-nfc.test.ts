// Key and group names compare in NFC (core/validation.ts): `café` a macOS tool writes in NFD
// (e + U+0301) names the key typed as `café`. Every write stores names in NFC, every read by name
// takes the name in NFC, and migration 024 put the names stored before into NFC.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { rebuild } from '../support/cache-helpers.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();

const NFC = 'home.café';
const NFD = NFC.normalize('NFD');
const GROUP = 'Café';
const GROUP_NFD = GROUP.normalize('NFD');
const path = (s: string) => encodeURIComponent(s);

describe('names written in NFD are stored in NFC', () => {
  it('POST /v1/keys stores an NFD name and group in NFC, and refuses the NFC twin with 409', async () => {
    const p = await project(t, ['fr']);
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: NFD, group_name: GROUP_NFD });
    expect(created.status).toBe(201);
    const key = await body(created);
    expect([key.key, key.group_name]).toEqual([NFC, GROUP]);
    const twin = await t.call(p.apiKey, 'POST', '/v1/keys', { key: NFC, group_name: GROUP });
    expect(twin.status).toBe(409);
    const listed = await body(await p.get('/v1/keys'));
    expect(listed.keys.map((k: { key: string }) => k.key)).toEqual([NFC]);
  });

  it('PATCH stores a new group in NFC; the group list names it once', async () => {
    const p = await project(t, ['fr']);
    const a = await p.key('a.one', 'Default');
    await p.key('b.two', GROUP);
    const moved = await t.call(p.apiKey, 'PATCH', `/v1/keys/${a}`, { group_name: GROUP_NFD });
    expect(moved.status).toBe(200);
    expect((await body(moved)).group_name).toBe(GROUP);
    expect((await body(await p.get('/v1/groups'))).groups).toEqual([GROUP]);
  });

  it('an import of an NFD file updates the NFC keys it names, and creates none', async () => {
    const p = await project(t, ['fr']);
    const id = await p.key(NFC, GROUP);
    await p.put(id, 'fr', 'ancien');
    const file = JSON.stringify({ [NFD]: 'nouveau' });
    const res = await t.app.request('/v1/import/fr?format=json', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: file });
    expect(res.status, await res.clone().text()).toBe(200);
    const result = await body(res);
    expect([result.keys_created, result.values_updated]).toEqual([0, 1]);
    const listed = await body(await p.get('/v1/keys'));
    expect(listed.keys.map((k: { key: string }) => k.key)).toEqual([NFC]);
  });

  it('an import whose file names one key in both forms is refused whole, saying so', async () => {
    const p = await project(t, ['fr']);
    const file = `{"${NFC}": "un", "${NFD}": "deux"}`;
    const res = await t.app.request('/v1/import/fr?format=json', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: file });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await body(res))).toContain('two Unicode forms');
    expect((await body(await p.get('/v1/keys'))).keys).toEqual([]);
  });

  it('a namespace given in NFD names the NFC group', async () => {
    const p = await project(t, ['fr']);
    const id = await p.key(`${GROUP}.titre`, GROUP);
    await p.put(id, 'fr', 'ancien');
    const res = await t.app.request(`/v1/import/fr?format=json&namespace=${path(GROUP_NFD)}`, {
      method: 'POST',
      headers: { 'X-API-Key': p.apiKey },
      body: JSON.stringify({ titre: 'nouveau' }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect([(await body(res)).keys_created, (await body(await p.get('/v1/groups'))).groups]).toEqual([0, [GROUP]]);
  });
});

describe('names a request reads by are taken in NFC', () => {
  async function seeded() {
    const p = await project(t, ['fr']);
    const id = await p.key(NFC, GROUP);
    await p.put(id, 'fr', 'Bonjour', 'approved');
    return p;
  }

  it('live reads of a group and of a key named in NFD find the NFC ones', async () => {
    const p = await seeded();
    const key = await p.get(`/v1/translations/fr/${path(GROUP_NFD)}/${path(NFD)}`);
    expect(key.status, await key.clone().text()).toBe(200);
    expect((await body(key)).value).toBe('Bonjour');
    const group = await p.get(`/v1/translations/fr/${path(GROUP_NFD)}`);
    expect(group.status).toBe(200);
    expect((await body(group)).translations).toEqual({ [NFC]: 'Bonjour' });
  });

  it('cached reads of a group and of a key named in NFD find the NFC ones', async () => {
    const p = await seeded();
    await rebuild(t, p);
    const key = await p.get(`/v1/cached/translations/fr/${path(GROUP_NFD)}/${path(NFD)}`);
    expect(key.status, await key.clone().text()).toBe(200);
    expect(await body(key)).toEqual({ value: 'Bonjour' });
    const group = await p.get(`/v1/cached/translations/fr/${path(GROUP_NFD)}`);
    expect(group.status).toBe(200);
    expect(JSON.stringify(await body(group))).toContain('Bonjour');
  });

  it('a twin from before migration 024 (an NFC key and its NFD look-alike): live and cached reads by the NFD name answer the same key, the NFC one', async () => {
    const p = await seeded();
    // Written as a deployment from before 024 could hold it: past today's validation.
    const [twin] = await t.runtime.deps.sql<{ id: string }[]>`
      insert into translation_keys (project_id, key, group_name) values (${p.projectId}, ${NFD}, ${GROUP}) returning id`;
    await t.runtime.deps.sql`
      insert into translations (key_id, project_id, language, value, status) values (${twin!.id}, ${p.projectId}, 'fr', 'Jumeau', 'approved')`;
    await rebuild(t, p);
    const live = await p.get(`/v1/translations/fr/${path(GROUP)}/${path(NFD)}`);
    const cached = await p.get(`/v1/cached/translations/fr/${path(GROUP)}/${path(NFD)}`);
    expect((await body(live)).value).toBe('Bonjour');
    expect(await body(cached)).toEqual({ value: 'Bonjour' });
    // The twin stays reachable by id (and listed in its group's files under its own name).
    const byId = await p.get(`/v1/keys/${twin!.id}/translations/fr`);
    expect((await body(byId)).value).toBe('Jumeau');
  });

  it('the key filter, the export and the group endpoints take a group named in NFD', async () => {
    const p = await seeded();
    const listed = await body(await p.get(`/v1/keys?group=${path(GROUP_NFD)}`));
    expect(listed.keys.map((k: { key: string }) => k.key)).toEqual([NFC]);
    const exported = await p.get(`/v1/export/fr?format=json&group=${path(GROUP_NFD)}`);
    expect(exported.status).toBe(200);
    expect(await exported.json()).toEqual({ [NFC]: 'Bonjour' });
    const renamed = await t.call(p.apiKey, 'PATCH', `/v1/groups/${path(GROUP_NFD)}`, { new_name: 'Accueil' });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    expect((await body(renamed)).keys_updated).toBe(1);
    const deleted = await t.call(p.apiKey, 'DELETE', `/v1/groups/Accueil`);
    expect(deleted.status).toBe(204);
  });
});

describe('migration 024 puts stored names into NFC', () => {
  const MIGRATION = new URL('../../core/db/migrations/024_names_in_nfc.sql', import.meta.url);

  it('live and deleted keys and groups, but never onto a live twin; a second run changes nothing', async () => {
    const { sql } = t.runtime.deps;
    const p = await project(t, ['fr']);
    // Names as they could be stored before: written past today's validation, straight into the table.
    const other = 'e\u0301\u0323';
    const otherOrder = 'e\u0323\u0301';
    const rows = [
      { key: 'alone.café'.normalize('NFD'), group: GROUP_NFD, deleted: false },
      { key: 'twin.café', group: 'Default', deleted: false },
      { key: 'twin.café'.normalize('NFD'), group: 'Default', deleted: false },
      { key: 'gone.café'.normalize('NFD'), group: 'Default', deleted: true },
      { key: `two.${other}`, group: 'Default', deleted: false },
      { key: `two.${otherOrder}`, group: 'Default', deleted: false },
    ];
    for (const [i, row] of rows.entries()) {
      await sql`
        insert into translation_keys (project_id, key, group_name, created_at, deleted_at)
        values (${p.projectId}, ${row.key}, ${row.group}, now() + ${`${i} seconds`}::interval, ${row.deleted ? sql`now()` : null})`;
    }
    const stored = async () =>
      (await sql<{ key: string; group_name: string; deleted: boolean }[]>`
        select key, group_name, deleted_at is not null as deleted from translation_keys where project_id = ${p.projectId} order by created_at`).map(
        (r) => [r.key, r.group_name, r.deleted],
      );

    await sql.unsafe(await readFile(MIGRATION, 'utf8'));
    const after = await stored();
    expect(after).toEqual([
      ['alone.café', GROUP, false],
      ['twin.café', 'Default', false],
      ['twin.café'.normalize('NFD'), 'Default', false],
      ['gone.café', 'Default', true],
      [`two.${other}`.normalize('NFC'), 'Default', false],
      [`two.${otherOrder}`, 'Default', false],
    ]);
    await sql.unsafe(await readFile(MIGRATION, 'utf8'));
    expect(await stored()).toEqual(after);
  });
});
