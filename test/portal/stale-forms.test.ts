// Forms that write what the page showed, not what a colleague wrote since. The value form carries
// its version (editor-actions.test.ts) and the bulk form the versions of the values shown
// (bulk-stale.test.ts); the key edit form carries the fields as shown (only changed ones are
// written, and only over those), History's revert the stored version it showed, and the import
// preview's Apply a fingerprint of its dry run (Apply runs it again and shows the new preview when
// it differs).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { usingRealPostgres } from '../support/test-database.ts';
import { heldAtUnitCharge } from '../support/held-at-unit-charge.ts';
import { signedInMember } from './support/signed-in-member.ts';
import type { PortalClient } from './support/portal-client.ts';
import { decode, formFields } from './support/form-fields.ts';

const t = useTestApp();
let p: TestProject;
let dev: PortalClient;

let n = 0;
const unique = (prefix: string) => `${prefix}.${Date.now().toString(36)}${n++}`;

async function stored(keyId: string, language: string) {
  const [row] = await t.runtime.deps.sql<{ value: string; status: string }[]>`select value, status from translations where key_id = ${keyId} and language = ${language}`;
  return row;
}

beforeAll(async () => {
  p = await t.newProject('team');
  expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
  dev = await signedInMember(t, p.accountId, 'developer');
});

describe("the key edit form does not revert a colleague's change it never showed", () => {
  it('moving a key to another group keeps the description a colleague wrote after the page was loaded', async () => {
    const name = unique('stale.key');
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: name, group_name: 'home', description: 'Old context' });
    expect(created.status).toBe(201);
    const keyId = ((await created.json()) as { id: string }).id;

    // The developer opens the editor: the key's edit form shows group "home" and "Old context".
    const page = await dev.get(`/portal/projects/${p.projectId}?q=${encodeURIComponent(name)}`);
    const fields = formFields(page.text, `/portal/projects/${p.projectId}/keys/${keyId}`);
    expect(fields).toMatchObject({ group_name: 'home', description: 'Old context' });

    // A colleague improves the description meanwhile.
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${keyId}`, { description: 'Shown on the home screen, max 20 characters' })).status).toBe(200);

    // The developer only changes the group, and saves the form as the page showed it.
    await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}`, { ...fields, group_name: 'screens' });

    // The colleague's description must not be silently replaced by the text the page showed
    // (whether the move is then applied alone, or refused as a conflict).
    const [key] = await t.runtime.deps.sql<{ description: string | null }[]>`select description from translation_keys where id = ${keyId}`;
    expect(key!.description).toBe('Shown on the home screen, max 20 characters');
    const [moved] = await t.runtime.deps.sql<{ group_name: string }[]>`select group_name from translation_keys where id = ${keyId}`;
    expect(moved!.group_name).toBe('screens');
  });

  it('a change to the field a colleague changed meanwhile is refused, with what was typed kept', async () => {
    const name = unique('stale.key');
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: name, group_name: 'home', description: 'Old context' });
    const keyId = ((await created.json()) as { id: string }).id;
    const editor = `/portal/projects/${p.projectId}?q=${encodeURIComponent(name)}`;
    const fields = formFields((await dev.get(editor)).text, `/portal/projects/${p.projectId}/keys/${keyId}`);
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${keyId}`, { description: 'Their context' })).status).toBe(200);

    const res = await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}`, { ...fields, group_name: 'screens', description: 'My context', return_to: editor });
    expect(res.status).toBe(412);
    expect(decode(res.text)).toContain("someone else changed this key's description since the page was loaded");
    const again = formFields(res.text, `/portal/projects/${p.projectId}/keys/${keyId}`);
    // The typed text in the fields, and the form now names the stored values: Save again replaces them knowingly.
    expect(again).toMatchObject({ group_name: 'screens', description: 'My context', group_name_was: 'home', description_was: 'Their context' });
    const [before] = await t.runtime.deps.sql<{ group_name: string; description: string | null }[]>`select group_name, description from translation_keys where id = ${keyId}`;
    expect(before).toEqual({ group_name: 'home', description: 'Their context' });

    expect((await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}`, again)).status).toBe(303);
    const [after] = await t.runtime.deps.sql<{ group_name: string; description: string | null }[]>`select group_name, description from translation_keys where id = ${keyId}`;
    expect(after).toEqual({ group_name: 'screens', description: 'My context' });
  });

  it('a form without a description field leaves the description as it is', async () => {
    const name = unique('stale.key');
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: name, group_name: 'home', description: 'Kept' });
    const keyId = ((await created.json()) as { id: string }).id;
    expect((await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}`, { group_name: 'screens' })).status).toBe(303);
    const [key] = await t.runtime.deps.sql<{ group_name: string; description: string | null }[]>`select group_name, description from translation_keys where id = ${keyId}`;
    expect(key).toEqual({ group_name: 'screens', description: 'Kept' });
  });

  it('a description with line breaks, unchanged, is not taken for a colleague\'s change (a browser sends CRLF)', async () => {
    const name = unique('stale.key');
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: name, group_name: 'home', description: 'Line one\nLine two' });
    const keyId = ((await created.json()) as { id: string }).id;
    const fields = formFields((await dev.get(`/portal/projects/${p.projectId}?q=${encodeURIComponent(name)}`)).text, `/portal/projects/${p.projectId}/keys/${keyId}`);
    const crlf = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.replace(/\n/g, '\r\n')]));
    expect((await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}`, { ...crlf, description: 'Line one\r\nLine 2' })).status).toBe(303);
    const [key] = await t.runtime.deps.sql<{ description: string | null }[]>`select description from translation_keys where id = ${keyId}`;
    expect(key!.description).toBe('Line one\r\nLine 2');
  });
});

describe("History's revert does not overwrite a change the page never showed", () => {
  it('a revert sent from a History page loaded before a colleague saved the value leaves their text', async () => {
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: unique('stale.revert') });
    const keyId = ((await created.json()) as { id: string }).id;
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Eins' })).status).toBe(200);
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Zwei' })).status).toBe(200);

    // History shows "Zwei" as current and "Eins" with Revert.
    const history = await dev.get(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/history`);
    expect(history.status).toBe(200);
    const revert = formFields(history.text, `/portal/projects/${p.projectId}/keys/${keyId}/values/de/revert`);
    expect(revert.event_id).toMatch(/^\d+$/);

    // A colleague (a reviewer) approves a corrected text meanwhile.
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Drei (korrigiert)', status: 'approved' })).status).toBe(200);

    // The developer clicks "Revert to this" on the page as loaded.
    const res = await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/revert`, revert);

    // The approved correction was never shown on that page: it is not overwritten (412, as a value
    // form in the same situation), and History, as it is now, says so.
    expect(await stored(keyId, 'de')).toEqual({ value: 'Drei (korrigiert)', status: 'approved' });
    expect(res.status).toBe(412);
    expect(res.text).toContain('Not reverted: someone else changed this value since this page was loaded');
    expect(decode(res.text)).toMatch(/Drei \(korrigiert\)<\/span>"<\/strong> <span class="badge status-approved">approved<\/span><br\/><span class="hint">[^<]*\(current\)/);

    // Sent from that page (it shows the correction as current), the revert is done.
    const again = formFields(res.text, `/portal/projects/${p.projectId}/keys/${keyId}/values/de/revert`);
    expect((await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/revert`, { ...again, event_id: revert.event_id! })).status).toBe(303);
    expect(await stored(keyId, 'de')).toEqual({ value: 'Eins', status: 'draft' });
  });

  it('a revert sent from a History page that showed no value leaves a value created since', async () => {
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: unique('stale.revert') });
    const keyId = ((await created.json()) as { id: string }).id;
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Eins' })).status).toBe(200);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${keyId}/translations/de`)).status).toBeLessThan(300);
    const history = await dev.get(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/history`);
    const revert = formFields(history.text, `/portal/projects/${p.projectId}/keys/${keyId}/values/de/revert`);
    expect(revert.version).toBe('none');
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Neu geschrieben' })).status).toBe(200);

    expect((await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/revert`, revert)).status).toBe(412);
    expect(await stored(keyId, 'de')).toEqual({ value: 'Neu geschrieben', status: 'draft' });
  });
});

describe("an import's Apply writes what its preview showed", () => {
  it('Apply after a colleague approved a value the preview listed as a plain draft change does not demote it unseen', async () => {
    const name = unique('stale.import');
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: name });
    const keyId = ((await created.json()) as { id: string }).id;
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Alt' })).status).toBe(200);

    // The preview: "Alt" -> "Neu", both drafts; no approved value would lose its status.
    const owner = await signedInMember(t, p.accountId, 'owner');
    const form = new FormData();
    form.set('_csrf', owner.csrf);
    for (const [k, v] of Object.entries({ language: 'de', format: 'json', status: 'draft', conflict: 'overwrite', group: 'Default' })) form.set(k, v);
    form.set('file', new File([JSON.stringify({ [name]: 'Neu' })], 'de.json', { type: 'application/json' }));
    const res = await t.app.request(`http://localhost/portal/projects/${p.projectId}/import`, {
      method: 'POST',
      headers: { Cookie: `tms_session=${owner.cookies.get('tms_session')}` },
      body: form,
    });
    const preview = await res.text();
    expect(res.status).toBe(200);
    expect(decode(preview)).toMatch(/>Alt<\/span>" → "<span[^>]*>Neu</);
    expect(preview).not.toContain('would become');

    // A reviewer approves a corrected text meanwhile.
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Korrigiert', status: 'approved' })).status).toBe(200);

    // Apply, as the preview's form sends it.
    const apply = new FormData();
    for (const [k, v] of Object.entries(formFields(preview, `/portal/projects/${p.projectId}/import`))) apply.set(k, v);
    const applied = await t.app.request(`http://localhost/portal/projects/${p.projectId}/import`, {
      method: 'POST',
      headers: { Cookie: `tms_session=${owner.cookies.get('tms_session')}` },
      body: apply,
    });

    // The preview showed neither "Korrigiert" nor an approval it would undo: Apply does not write
    // over it unseen, and shows the new preview instead.
    expect(await stored(keyId, 'de')).toEqual({ value: 'Korrigiert', status: 'approved' });
    expect(applied.status).toBe(412);
    const now = decode(await applied.text());
    expect(now).toContain('Nothing was imported: the project changed since the preview was made');
    expect(now).toMatch(/>Korrigiert<\/span>" → "<span[^>]*>Neu</);
    expect(now).toContain('would become');

    // Applied from the new preview, which showed the approval it undoes, the import is done.
    const again = new FormData();
    for (const [k, v] of Object.entries(formFields(now, `/portal/projects/${p.projectId}/import`))) again.set(k, v);
    const done = await t.app.request(`http://localhost/portal/projects/${p.projectId}/import`, {
      method: 'POST',
      headers: { Cookie: `tms_session=${owner.cookies.get('tms_session')}` },
      body: again,
    });
    expect(done.status).toBe(303);
    expect(await stored(keyId, 'de')).toEqual({ value: 'Neu', status: 'draft' });
  });
});

describe.runIf(usingRealPostgres())("an import's Apply and an approval landing while it runs", () => {
  it('an approval committed after Apply read the project and before it wrote: nothing is imported, the new preview is shown', async () => {
    const sql = t.runtime.deps.sql;
    const name = unique('racing.import');
    // Through an import: the account's translation-unit row exists, for the test to hold it.
    expect((await t.call(p.apiKey, 'POST', '/v1/import/de?status=draft', { [name]: 'Alt' })).status).toBe(200);
    const keyId = ((await (await t.call(p.apiKey, 'GET', `/v1/keys?search=${encodeURIComponent(name)}`)).json()) as { keys: { id: string }[] }).keys[0]!.id;
    const owner = await signedInMember(t, p.accountId, 'owner');
    const cookie = `tms_session=${owner.cookies.get('tms_session')}`;
    const form = new FormData();
    form.set('_csrf', owner.csrf);
    for (const [k, v] of Object.entries({ language: 'de', format: 'json', status: 'draft', conflict: 'overwrite', group: 'Default' })) form.set(k, v);
    form.set('file', new File([JSON.stringify({ [name]: 'Neu' })], 'de.json', { type: 'application/json' }));
    const preview = await (await t.app.request(`http://localhost/portal/projects/${p.projectId}/import`, { method: 'POST', headers: { Cookie: cookie }, body: form })).text();
    expect(preview).not.toContain('would become');

    // Apply is held at its translation-unit charge (after its read, before its write) while a
    // reviewer approves the value.
    const apply = new FormData();
    for (const [k, v] of Object.entries(formFields(preview, `/portal/projects/${p.projectId}/import`))) apply.set(k, v);
    const applied = await heldAtUnitCharge(
      sql,
      p.accountId,
      async () => t.app.request(`http://localhost/portal/projects/${p.projectId}/import`, { method: 'POST', headers: { Cookie: cookie }, body: apply }),
      async () => expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Alt', status: 'approved' })).status).toBe(200),
    );
    expect(await stored(keyId, 'de')).toEqual({ value: 'Alt', status: 'approved' });
    expect(applied.status).toBe(412);
    const now = decode(await applied.text());
    expect(now).toContain('Nothing was imported: the project changed since the preview was made');
    expect(now).toContain('would become');
  });
});
