// A write in the portal never runs twice because the browser was reloaded, or went Back: the forms
// whose page says what they did (Apply this import, Revert to this, Translate missing, a restore
// from the trash, removing a language, the quality settings, revoking an invitation) answer 303 to
// a GET page that shows the outcome (outcome=<id>, the user's own and that page's only), and a
// reload of that page, after colleagues changed things, only reads. The invitation form, whose
// answer shows a secret once, claims a one-time token instead, as the project and API key forms do.
// Publish and Auto-publish return to the page they were sent from, only ever a page of the project.
// The trash tells a deleted group from some keys of a live group deleted together.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient } from './support/portal-client.ts';
import { signedInMember } from './support/signed-in-member.ts';

const t = useTestApp();
let p: TestProject;
let owner: PortalClient;
let colleague: PortalClient;

const member = (role: string, project = p) => signedInMember(t, project.accountId, role, { emailPrefix: `prg-${role}` });

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

const newKey = async (key: string, group_name = 'Default') => ((await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name }))) as { id: string }).id;
const put = async (keyId: string, language: string, value: string, status = 'draft') => json(await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/${language}`, { value, status }));
const stored = async (keyId: string, language: string) => (await json(await t.call(p.apiKey, 'GET', `/v1/keys/${keyId}/translations/${language}`))) as { value: string; status: string };
const events = async (type: string) =>
  (await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from domain_events where project_id = ${p.projectId} and type = ${type}`)[0]!.n;
/** A page's text as read (tags dropped, entities decoded). */
const visible = (html: string) => html.replace(/<[^>]*>/g, ' ').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&').replace(/\s+/g, ' ');

/** The import form sent as the page sends it: multipart, with the file. */
async function importForm(client: PortalClient, fields: Record<string, string>, file?: string) {
  const form = new FormData();
  form.set('_csrf', client.csrf);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file !== undefined) form.set('file', new File([file], 'upload.json', { type: 'application/json' }));
  const res = await t.app.request(`http://localhost/portal/projects/${p.projectId}/import`, {
    method: 'POST',
    headers: { Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), Origin: 'http://localhost' },
    body: form,
  });
  return { status: res.status, text: await res.text(), location: res.headers.get('location') };
}

/** The hidden fields of the preview's Apply form, as the browser sends them. */
function applyFields(html: string): Record<string, string> {
  const form = /<form method="post" action="[^"]*\/import"[^>]*>([\s\S]*?)<\/form>/.exec(html)![1]!;
  const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [name!, decode(value!)]));
}

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['en', 'de', 'fr']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
  owner = await member('owner');
  colleague = await member('developer');
});

describe('Apply this import', () => {
  it('runs again and succeeds when a key of the file is created meanwhile, as the API import does', async () => {
    const sql = t.runtime.deps.sql;
    // Simulates another writer creating the key between the import's read of its keys and its
    // insert of new ones, once (a sequence is not rolled back): the import's insert then meets the
    // live-name index, as in test/files/import-races.test.ts on real Postgres.
    const name = `race_${p.projectId.replaceAll('-', '_')}`;
    await sql.unsafe(`create sequence ${name}`);
    await sql.unsafe(`
      create function ${name}() returns trigger language plpgsql as $$
      begin
        if new.project_id = '${p.projectId}' and new.key like 'race.%' and nextval('${name}') = 1 then
          insert into translation_keys (project_id, key, group_name) values (new.project_id, new.key, 'Default');
        end if;
        return new;
      end $$`);
    await sql.unsafe(`create trigger ${name} before insert on translation_keys for each row execute function ${name}()`);
    try {
      // The API's import: againWhenNameTaken runs its transaction again, and it succeeds.
      const api = await t.call(p.apiKey, 'POST', '/v1/import/de?format=json', { 'race.api': 'Aus der API' });
      expect(api.status, await api.clone().text()).toBe(200);

      // The portal's Apply of the same kind of file, the same race.
      await sql.unsafe(`select setval('${name}', 1, false)`);
      const fields = { language: 'de', format: 'json', status: 'draft', conflict: 'overwrite', group: 'Default' };
      const preview = await importForm(owner, fields, JSON.stringify({ 'race.portal': 'Aus dem Portal' }));
      expect(preview.status).toBe(200);
      const applied = await owner.post(`/portal/projects/${p.projectId}/import`, applyFields(preview.text));
      // Not a 409 at the file field: the token's claim and the import run again together.
      expect(applied.status, applied.text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').slice(0, 2000)).toBe(303);
    } finally {
      await sql.unsafe(`drop trigger ${name} on translation_keys`);
      await sql.unsafe(`drop function ${name}()`);
      await sql.unsafe(`drop sequence ${name}`);
    }
  });

  it('run again after a race, the import locks what it reads first, through Apply as through the API', async () => {
    const sql = t.runtime.deps.sql;
    const keyId = await newKey('lock.apply');
    await put(keyId, 'de', 'Alt');
    // Another writer changing the value between the import's read and its write, simulated at the
    // import's unit charge: unless the import holds the value's row lock (its xmax is this
    // transaction's), the value is changed under it. Every unlocked attempt races; a locked one cannot.
    const name = `lock_${p.projectId.replaceAll('-', '_')}`;
    await sql.unsafe(`
      create function ${name}() returns trigger language plpgsql as $$
      begin
        if new.account_id = '${p.accountId}' then
          update translations set value = value || ' (meanwhile)'
          where key_id = '${keyId}' and language = 'de'
            and xmax::text::bigint <> pg_current_xact_id()::text::bigint % 4294967296;
        end if;
        return new;
      end $$`);
    await sql.unsafe(`create trigger ${name} after insert or update on translation_unit_usage for each row execute function ${name}()`);
    try {
      const api = await t.call(p.apiKey, 'POST', '/v1/import/de?format=json&conflict=overwrite', { 'lock.apply': 'Aus der API' });
      expect(api.status, await api.clone().text()).toBe(200);
      expect(await stored(keyId, 'de')).toMatchObject({ value: 'Aus der API' });

      const fields = { language: 'de', format: 'json', status: 'draft', conflict: 'overwrite', group: 'Default' };
      const preview = await importForm(owner, fields, JSON.stringify({ 'lock.apply': 'Aus dem Portal' }));
      expect(preview.status).toBe(200);
      const applied = await owner.post(`/portal/projects/${p.projectId}/import`, applyFields(preview.text));
      expect(applied.status, applied.text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').slice(0, 2000)).toBe(303);
      expect(await stored(keyId, 'de')).toMatchObject({ value: 'Aus dem Portal' });
    } finally {
      await sql.unsafe(`drop trigger ${name} on translation_unit_usage`);
      await sql.unsafe(`drop function ${name}()`);
    }
  });

  it('answers 303 to the Files page with the counts; reloading it after a colleague changed a value imports nothing again', async () => {
    const keyId = await newKey('prg.import');
    await put(keyId, 'de', 'Alt');
    const fields = { language: 'de', format: 'json', status: 'draft', conflict: 'overwrite', group: 'Default' };
    const preview = await importForm(owner, fields, JSON.stringify({ 'prg.import': 'Aus der Datei', 'prg.import.new': 'Neu' }));
    expect(preview.status).toBe(200);
    const before = await events('translation.imported');

    const applied = await owner.post(`/portal/projects/${p.projectId}/import`, applyFields(preview.text));
    expect(applied.status).toBe(303);
    expect(applied.location).toMatch(new RegExp(`^/portal/projects/${p.projectId}/files\\?outcome=[0-9a-f-]{36}$`));
    expect(await events('translation.imported')).toBe(before + 1);
    const shown = await owner.get(applied.location!);
    expect(shown.status).toBe(200);
    expect(visible(shown.text)).toMatch(/Imported into de: 1 new key 1 new value 1 changed value/);

    // A colleague changes the value; the reload of the result page reads, and writes nothing.
    await put(keyId, 'de', 'Vom Kollegen');
    const reloaded = await owner.get(applied.location!);
    expect(visible(reloaded.text)).toMatch(/Imported into de: 1 new key/);
    expect(await stored(keyId, 'de')).toMatchObject({ value: 'Vom Kollegen' });
    expect(await events('translation.imported')).toBe(before + 1);

    // The outcome is the user's own: a colleague (or another id) opening the address sees no result.
    expect(visible((await colleague.get(applied.location!)).text)).not.toContain('Imported into');
    expect(visible((await owner.get(`/portal/projects/${p.projectId}/files?outcome=not-an-id`)).text)).not.toContain('Imported into');
    // Nor on another project's page.
    const other = await t.newProject('team');
    const ownerThere = await member('owner', other);
    const id = new URL(applied.location!, 'http://x').searchParams.get('outcome');
    expect(visible((await ownerThere.get(`/portal/projects/${other.projectId}/files?outcome=${id}`)).text)).not.toContain('Imported into');
  });

  it('Back to the preview and Apply again imports once: the second sending shows the first counts and writes nothing', async () => {
    const keyId = await newKey('prg.again');
    await put(keyId, 'de', 'Alt');
    const fields = { language: 'de', format: 'json', status: 'draft', conflict: 'overwrite', group: 'Default' };
    const preview = await importForm(owner, fields, JSON.stringify({ 'prg.again': 'Aus der Datei' }));
    const apply = applyFields(preview.text);
    expect(apply.submission).toMatch(/^[0-9a-f-]{36}$/);
    const before = await events('translation.imported');
    const first = await owner.post(`/portal/projects/${p.projectId}/import`, apply);
    expect(first.status).toBe(303);
    await put(keyId, 'de', 'Vom Kollegen');

    // The browser's Back shows the old preview page (its form and token as they were): Apply again.
    const again = await owner.post(`/portal/projects/${p.projectId}/import`, apply);
    expect(again.status).toBe(303);
    expect(again.location).not.toBe(first.location);
    expect(await stored(keyId, 'de')).toMatchObject({ value: 'Vom Kollegen' });
    expect(await events('translation.imported')).toBe(before + 1);
    const shown = visible((await owner.get(again.location!)).text);
    expect(shown).toContain('This preview was already applied, and nothing was imported again');
    expect(shown).toMatch(/Imported into de: 0 new keys 0 new values 1 changed value/);

    // A new preview of the same file is a new token: applying it imports again, as asked.
    const second = applyFields((await importForm(owner, fields, JSON.stringify({ 'prg.again': 'Aus der Datei' }))).text);
    expect(second.submission).not.toBe(apply.submission);
    expect((await owner.post(`/portal/projects/${p.projectId}/import`, second)).status).toBe(303);
    expect(await stored(keyId, 'de')).toMatchObject({ value: 'Aus der Datei' });
    expect(await events('translation.imported')).toBe(before + 2);
  });
});

describe('Revert to this', () => {
  it('answers 303 to the History with what it did; a reload there does not revert again over a later change', async () => {
    const keyId = await newKey('prg.revert');
    await put(keyId, 'de', 'Erster');
    await put(keyId, 'de', 'Zweiter');
    const history = `/portal/projects/${p.projectId}/keys/${keyId}/values/de/history`;
    const ids = [...(await owner.get(history)).text.matchAll(/name="event_id" value="(\d+)"/g)].map((m) => m[1]!);
    const reverted = await owner.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/revert`, { event_id: ids.at(-1)! });
    expect(reverted.status).toBe(303);
    expect(reverted.location).toMatch(new RegExp(`^${history}\\?outcome=[0-9a-f-]{36}$`));
    expect(await stored(keyId, 'de')).toMatchObject({ value: 'Erster' });
    expect(visible((await owner.get(reverted.location!)).text)).toContain('Reverted to "Erster" (draft).');

    await put(keyId, 'de', 'Dritter');
    expect((await owner.get(reverted.location!)).status).toBe(200);
    expect(await stored(keyId, 'de')).toMatchObject({ value: 'Dritter' });
  });
});

describe('the trash, the languages and the members page', () => {
  it('a restore answers 303 to the trash; a reload does not bring back a key deleted again', async () => {
    const keyId = await newKey('prg.restore');
    await json(await t.call(p.apiKey, 'DELETE', `/v1/keys/${keyId}`));
    const restored = await owner.post(`/portal/projects/${p.projectId}/trash/keys/${keyId}/restore`);
    expect(restored.status).toBe(303);
    expect(visible((await owner.get(restored.location!)).text)).toContain('Restored prg.restore.');
    await json(await t.call(p.apiKey, 'DELETE', `/v1/keys/${keyId}`));
    await owner.get(restored.location!);
    expect((await t.call(p.apiKey, 'GET', `/v1/keys/${keyId}`)).status).toBe(404);
  });

  it('removing a language answers 303; a reload does not remove it again once re-added', async () => {
    await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'it' }));
    // The first step only asks for confirmation (nothing written; its page may be reloaded).
    const asked = await owner.post(`/portal/projects/${p.projectId}/languages/it/remove`);
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('name="confirmed" value="yes"');
    const removed = await owner.post(`/portal/projects/${p.projectId}/languages/it/remove`, { confirmed: 'yes', values: '0', digest: 'none' });
    expect(removed.status).toBe(303);
    expect(visible((await owner.get(removed.location!)).text)).toContain('Removed it and its 0 values.');
    await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'it' }));
    await owner.get(removed.location!);
    const codes = ((await json(await t.call(p.apiKey, 'GET', '/v1/languages'))) as { languages: { code: string }[] }).languages.map((l) => l.code);
    expect(codes).toContain('it');
  });

  it('the quality settings answer 303 to the Languages tab', async () => {
    const saved = await owner.post(`/portal/projects/${p.projectId}/quality`, { source_language: 'en', quality_blocking: 'placeholders' });
    expect(saved.status).toBe(303);
    expect(saved.location).toMatch(new RegExp(`^/portal/projects/${p.projectId}/languages\\?outcome=`));
    expect(visible((await owner.get(saved.location!)).text)).toContain('Quality settings saved.');
  });

  it('revoking an invitation answers 303 to the Members page', async () => {
    const members = `/portal/accounts/${p.accountId}/members`;
    expect((await owner.post(`/portal/accounts/${p.accountId}/invites`, { role: 'reviewer' })).status).toBe(201);
    const revoke = /action="(\/portal\/accounts\/[0-9a-f-]{36}\/invites\/[0-9a-f-]{36}\/revoke)"/.exec((await owner.get(members)).text)![1]!;
    const revoked = await owner.post(revoke);
    expect(revoked.status).toBe(303);
    expect(revoked.location).toMatch(new RegExp(`^${members}\\?outcome=`));
    expect(visible((await owner.get(revoked.location!)).text)).toContain('Invitation revoked: its link no longer works.');
  });
});

describe('the invitation form sent twice', () => {
  const pending = async () =>
    (await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from invites where account_id = ${p.accountId} and accepted_at is null and expires_at > now()`)[0]!.n;

  it('creates one invitation: the reload answers that it was sent, without a second link', async () => {
    const page = await owner.get(`/portal/accounts/${p.accountId}/members`);
    const submission = /<form method="post" action="\/portal\/accounts\/[0-9a-f-]{36}\/invites" class="card stack">[^]*?name="submission" value="([0-9a-f-]{36})"/.exec(page.text)![1]!;
    const before = await pending();
    const fields = { role: 'translator', languages: 'de', submission };
    const first = await owner.post(`/portal/accounts/${p.accountId}/invites`, fields);
    expect(first.status).toBe(201);
    expect(first.text).toMatch(/value="http:\/\/localhost\/portal\/invite\/[^"]+"/);
    const again = await owner.post(`/portal/accounts/${p.accountId}/invites`, fields);
    expect(again.status).toBe(200);
    expect(again.text).not.toMatch(/\/portal\/invite\/[A-Za-z0-9_-]{20,}/);
    expect(visible(again.text)).toContain('This form was already sent, and that created the invitation');
    expect(await pending()).toBe(before + 1);
    // The same page sent with other input (back, another role) is another invitation.
    expect((await owner.post(`/portal/accounts/${p.accountId}/invites`, { ...fields, role: 'reviewer' })).status).toBe(201);
    expect(await pending()).toBe(before + 2);
  });
});

describe('Publish and Auto-publish', () => {
  it('return to the page they were sent from, only ever a page of this project', async () => {
    const base = `/portal/projects/${p.projectId}`;
    const languages = await owner.get(`${base}/languages`);
    expect(languages.text).toMatch(new RegExp(`action="${base}/publish" class="inline"><input type="hidden" name="_csrf" value="[^"]+"/><input type="hidden" name="return_to" value="${base}/languages"/>`));
    expect((await owner.post(`${base}/publish`, { return_to: `${base}/languages` })).location).toBe(`${base}/languages`);
    expect((await owner.post(`${base}/settings`, { auto_rebuild: 'true', return_to: `${base}/trash` })).location).toBe(`${base}/trash`);
    expect((await owner.post(`${base}/settings`, { auto_rebuild: 'false', return_to: `${base}?lang=de&q=x` })).location).toBe(`${base}?lang=de&q=x`);
    // The editor's form carries its filters.
    expect((await owner.get(`${base}?lang=de&q=prg`)).text).toContain(`name="return_to" value="${base}?lang=de&amp;q=prg"/>`);
    const other = await t.newProject('team');
    for (const elsewhere of ['https://evil.example/', '//evil.example/portal', `/portal/projects/${other.projectId}/languages`, `${base}/../${other.projectId}`, `${base}0/languages`, '/v1/keys', `${base}\\..`, '']) {
      expect((await owner.post(`${base}/publish`, { return_to: elsewhere })).location, elsewhere).toBe(base);
    }
  });
});

describe('the trash after a bulk delete', () => {
  it('lists some keys of a live group deleted together apart from deleted groups, and restores them', async () => {
    const a = await newKey('bulk.a', 'bulk');
    const b = await newKey('bulk.b', 'bulk');
    await newKey('bulk.c', 'bulk');
    for (const k of ['gone.a', 'gone.b']) await newKey(k, 'gone');
    const deleted = await owner.post(`/portal/projects/${p.projectId}/bulk`, { action: 'delete', key: [a, b], return_to: `/portal/projects/${p.projectId}` });
    expect(deleted.status).toBe(303);
    await json(await t.call(p.apiKey, 'DELETE', '/v1/groups/gone'));

    const trashPage = (await owner.get(`/portal/projects/${p.projectId}/trash`)).text;
    const trash = visible(trashPage);
    const groups = /Deleted groups(.*?)(?:Keys deleted together|Deleted keys)/.exec(trash)![1]!;
    expect(groups).toContain('gone 2 keys');
    expect(groups).not.toContain('bulk');
    expect(trash).toMatch(/Keys deleted together 2 keys of bulk \(the group still has other keys\), deleted together/);
    expect(trash).toContain('Restore these 2 keys');

    // The line's form names the delete it lists (its deleted_at).
    const deletedAt = /action="[^"]*\/trash\/groups\/bulk\/restore"[^>]*>[^]*?name="deleted_at" value="([^"]+)"/.exec(trashPage)![1]!;
    const restored = await owner.follow(await owner.post(`/portal/projects/${p.projectId}/trash/groups/bulk/restore`, { deleted_at: deletedAt }));
    expect(visible(restored.text)).toContain('Restored 2 keys of bulk.');
    const live = ((await json(await t.call(p.apiKey, 'GET', '/v1/keys?group=bulk'))) as { keys: { key: string }[] }).keys.map((k) => k.key);
    expect(live).toEqual(['bulk.a', 'bulk.b', 'bulk.c']);
    expect(visible(restored.text)).not.toContain('Keys deleted together');
  });
});

describe('the project-created page', () => {
  it('keeps Add languages and Open the editor apart', async () => {
    const created = await owner.post(`/portal/accounts/${p.accountId}/projects`, { name: 'Spacing' });
    expect(created.status).toBe(201);
    expect(created.text).toMatch(/<p class="row wrap actions"><a class="button" href="[^"]+\/languages">Add languages<\/a><a href=/);
    const css = (await owner.get(/href="(\/portal\/assets\/portal\.css[^"]*)"/.exec(created.text)![1]!)).text;
    expect(css).toContain('.actions{align-items:center;gap:1rem}');
  });
});
