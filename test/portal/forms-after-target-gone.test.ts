// Portal forms whose target changed underneath them (key deleted, language removed, group renamed), the language removal's confirmation, and the attribution of concurrent writers (from a review, 2026-11-30).
// group renamed), the language removal's confirmation, and attribution of concurrent writers.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { signedInMember } from './support/signed-in-member.ts';
import type { PortalClient } from './support/portal-client.ts';
import { bulkFields, decode, formFields } from './support/form-fields.ts';

const t = useTestApp();
let p: TestProject;
let dev: PortalClient;
let reviewer: PortalClient;
let n = 0;
const unique = (prefix: string) => `${prefix}.${Date.now().toString(36)}${n++}`;

async function newKey(key: string, values: Record<string, string> = {}, group?: string): Promise<string> {
  const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key, ...(group ? { group_name: group } : {}) });
  expect(created.status).toBe(201);
  const keyId = ((await created.json()) as { id: string }).id;
  for (const [lang, value] of Object.entries(values)) expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/${lang}`, { value })).status).toBe(200);
  return keyId;
}

const count = async (lang: string) =>
  (await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from translations where project_id = ${p.projectId} and language = ${lang}`)[0]!.n;

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['en', 'de', 'fr', 'it', 'es']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  dev = await signedInMember(t, p.accountId, 'developer');
  reviewer = await signedInMember(t, p.accountId, 'reviewer');
});

describe('language removal confirms a count, then deletes', () => {
  it('does not delete values written after the confirmation showed its count', async () => {
    await newKey(unique('lr.a'), { it: 'Uno' });
    await newKey(unique('lr.b'), { it: 'Due' });
    const confirm = await dev.post(`/portal/projects/${p.projectId}/languages/it/remove`, {});
    expect(confirm.status).toBe(200);
    expect(decode(confirm.text)).toContain('deletes its <strong>2</strong> values');
    const fields = formFields(confirm.text, `/portal/projects/${p.projectId}/languages/it/remove`, { selects: true });

    // CI pushes 3 more Italian values (or translators save them) before the owner clicks.
    const push = await t.call(p.apiKey, 'POST', '/v1/import/it?format=json&status=approved', JSON.stringify({ [unique('lr.c')]: 'Tre', [unique('lr.d')]: 'Quattro', [unique('lr.e')]: 'Cinque' }));
    expect(push.status, await push.clone().text()).toBeLessThan(300);
    expect(await count('it')).toBe(5);

    const res = await dev.post(`/portal/projects/${p.projectId}/languages/it/remove`, fields);
    // The page promised "deletes its 2 values for good": 5 must not be deleted unseen.
    expect(await count('it')).not.toBe(0);
    expect(res.status).not.toBe(303);
  });
});

describe('forms whose target is gone', () => {
  it('a value save after the key was deleted: 404 with a message, not a 500; nothing written', async () => {
    const keyId = await newKey(unique('gone.save'), { de: 'Alt' });
    const page = await dev.get(`/portal/projects/${p.projectId}?lang=de`);
    const action = `/portal/projects/${p.projectId}/keys/${keyId}/values/de`;
    const fields = formFields(page.text, action, { selects: true });
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${keyId}`)).status).toBe(204);
    const res = await dev.post(action, { ...fields, value: 'Mein neuer Text' });
    expect(res.status).toBe(404);
    const json = await dev.post(action, { ...fields, value: 'Mein neuer Text' }, { Accept: 'application/json' });
    expect(json.status).toBe(404);
    const [row] = await t.runtime.deps.sql<{ value: string }[]>`select value from translations where key_id = ${keyId} and language = 'de'`;
    expect(row?.value ?? null).not.toBe('Mein neuer Text');
  });

  it('a value save after the key was deleted keeps the typed text somewhere the translator can copy it', async () => {
    const keyId = await newKey(unique('gone.typed'), { de: 'Alt' });
    const page = await dev.get(`/portal/projects/${p.projectId}?lang=de`);
    const action = `/portal/projects/${p.projectId}/keys/${keyId}/values/de`;
    const fields = formFields(page.text, action, { selects: true });
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${keyId}`)).status).toBe(204);
    const res = await dev.post(action, { ...fields, value: 'Zwanzig Minuten Arbeit' });
    expect(res.status).toBe(404);
    expect(decode(res.text)).toContain('Zwanzig Minuten Arbeit');
  });

  it('a value save after the language was removed: 404 with a message, not a 500', async () => {
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'pt' })).status).toBe(201);
    const keyId = await newKey(unique('gone.lang'), { pt: 'Velho' });
    const page = await dev.get(`/portal/projects/${p.projectId}?lang=pt`);
    const action = `/portal/projects/${p.projectId}/keys/${keyId}/values/pt`;
    const fields = formFields(page.text, action, { selects: true });
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/pt')).status).toBe(200);
    const res = await dev.post(action, { ...fields, value: 'Novo' });
    expect([404, 412, 422]).toContain(res.status);
    const json = await dev.post(action, { ...fields, value: 'Novo' }, { Accept: 'application/json' });
    expect([404, 412, 422]).toContain(json.status);
    // Removed and added again: the old form (If-Match on a version of the removed value) writes nothing.
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'pt' })).status).toBe(201);
    const again = await dev.post(action, { ...fields, value: 'Novo' });
    expect(again.status).toBe(412);
    expect(await count('pt')).toBe(0);
  });

  it('bulk approve with a selected key deleted meanwhile: a message, not a 500, nothing approved', async () => {
    const a = await newKey(unique('gone.bulk'), { de: 'A' });
    const b = await newKey(unique('gone.bulk'), { de: 'B' });
    const page = await reviewer.get(`/portal/projects/${p.projectId}?lang=de&q=gone.bulk`);
    const fields = bulkFields(page.text, [a, b], 'approved');
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${b}`)).status).toBe(204);
    const res = await reviewer.post(`/portal/projects/${p.projectId}/bulk`, fields);
    expect(res.status).toBeLessThan(500);
    expect(res.status).not.toBe(303);
    const [row] = await t.runtime.deps.sql<{ status: string }[]>`select status from translations where key_id = ${a} and language = 'de'`;
    expect(row!.status).toBe('draft');
  });

  it('key edit, key delete, group rename, translate-missing and history after the target went: 404/409/412, never 500', async () => {
    const keyId = await newKey(unique('gone.key'), { de: 'X' }, 'oldgroup');
    const page = await dev.get(`/portal/projects/${p.projectId}?lang=de&group=oldgroup`);
    const edit = formFields(page.text, `/portal/projects/${p.projectId}/keys/${keyId}`, { selects: true });
    const rename = formFields(page.text, `/portal/projects/${p.projectId}/groups/oldgroup/rename`, { selects: true });
    expect((await t.call(p.apiKey, 'PATCH', '/v1/groups/oldgroup', { new_name: 'newgroup' })).status).toBe(200);
    const renamed = await dev.post(`/portal/projects/${p.projectId}/groups/oldgroup/rename`, { ...rename, new_name: 'third' });
    expect(renamed.status, renamed.text.slice(0, 200)).toBe(404);
    const edited = await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}`, { ...edit, description: 'ctx' });
    // group_name was "oldgroup" as shown; it is "newgroup" now, but only the description changed: fine either way, not a 500.
    expect(edited.status).toBeLessThan(500);
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${keyId}`)).status).toBe(204);
    const edited2 = await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}`, { ...edit, description: 'ctx2' });
    expect(edited2.status).toBe(404);
    const deleted = await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}/delete`, { return_to: `/portal/projects/${p.projectId}` });
    expect(deleted.status).toBe(404);
    const history = await dev.get(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/history`);
    expect(history.status).toBeLessThan(500);
    const sugg = await dev.get(`/portal/projects/${p.projectId}/keys/${keyId}/suggestions/de`);
    expect(sugg.status).toBeLessThan(500);
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'nl' })).status).toBe(201);
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/nl')).status).toBe(200);
    const tm = await dev.post(`/portal/projects/${p.projectId}/translate`, { language: 'nl', return_to: `/portal/projects/${p.projectId}` });
    expect(tm.status).toBeLessThan(500);
    expect(tm.status).not.toBe(303);
    const removeAgain = await dev.post(`/portal/projects/${p.projectId}/languages/nl/remove`, { confirmed: 'yes' });
    expect(removeAgain.status).toBe(404);
  });
});

describe('attribution of two writers', () => {
  it('activity and history name the portal user and the API key', async () => {
    const keyId = await newKey(unique('attr'), { fr: 'Un' });
    const page = await reviewer.get(`/portal/projects/${p.projectId}?lang=fr`);
    const action = `/portal/projects/${p.projectId}/keys/${keyId}/values/fr`;
    const fields = formFields(page.text, action, { selects: true });
    expect((await reviewer.post(action, { ...fields, value: 'Deux', status: 'approved' })).status).toBe(303);
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/fr`, { value: 'Trois' })).status).toBe(200);
    const history = decode((await dev.get(`/portal/projects/${p.projectId}/keys/${keyId}/values/fr/history`)).text);
    expect(history).toMatch(/reviewer-[^@]*@example\.com/);
    expect(history).toMatch(/API key/i);
  });
});

describe('bulk action over a key deleted meanwhile', () => {
  it('shows the editor again with the selection kept and says which key went (as a 412 does), not a bare error page', async () => {
    const a = await newKey(unique('gone.sel'), { de: 'A' });
    const b = await newKey(unique('gone.sel'), { de: 'B' });
    const editor = `/portal/projects/${p.projectId}?lang=de&q=gone.sel`;
    const page = await reviewer.get(editor);
    const fields = bulkFields(page.text, [a, b], 'approved');
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${b}`)).status).toBe(204);
    const res = await reviewer.post(`/portal/projects/${p.projectId}/bulk`, fields);
    const html = decode(res.text);
    // The editor, with the remaining key still ticked.
    expect(html).toContain('id="bulk"');
    expect(html).toMatch(new RegExp(`value="${a}"[^>]*checked`));
  });
});

describe('history attribution across writers', () => {
  it('an import by an API key and a bulk approval by a portal user are each attributed', async () => {
    const name = unique('attr2');
    const keyId = await newKey(name, { fr: 'Un' });
    const imp = await t.call(p.apiKey, 'POST', '/v1/import/fr?format=json&status=review', JSON.stringify({ [name]: 'Deux' }));
    expect(imp.status).toBe(200);
    const page = await reviewer.get(`/portal/projects/${p.projectId}?lang=fr&q=${encodeURIComponent(name)}`);
    expect((await reviewer.post(`/portal/projects/${p.projectId}/bulk`, bulkFields(page.text, [keyId], 'approved'))).status).toBe(303);
    const history = decode((await dev.get(`/portal/projects/${p.projectId}/keys/${keyId}/values/fr/history`)).text);
    const activity = decode((await dev.get(`/portal/projects/${p.projectId}/activity`)).text);
    expect(history).toMatch(/reviewer-[^@]*@example\.com/);
    expect(history).toMatch(/import/i);
    expect(activity).toMatch(/reviewer-[^@]*@example\.com/);
  });
});
