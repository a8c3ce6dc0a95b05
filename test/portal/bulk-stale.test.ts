// The editor's bulk status actions ("Approve values" on a selection) act on the texts the page
// showed: the bulk form carries the version of every value shown ("none" for a missing one), the
// route hands the selected ones to the bulk use-case as expected_versions (one changed since: a 412,
// nothing changed), and a value created since where the page showed none is refused the same way.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { signedInMember } from './support/signed-in-member.ts';
import type { PortalClient } from './support/portal-client.ts';
import { bulkFields, decode } from './support/form-fields.ts';

const t = useTestApp();
let p: TestProject;
let reviewer: PortalClient;

beforeAll(async () => {
  p = await t.newProject('team');
  expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
  reviewer = await signedInMember(t, p.accountId, 'reviewer');
});

const stored = async (keyId: string) =>
  (await t.runtime.deps.sql<{ value: string; status: string }[]>`select value, status from translations where key_id = ${keyId} and language = 'de'`)[0];

async function newKey(key: string, value?: string): Promise<string> {
  const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key });
  const keyId = ((await created.json()) as { id: string }).id;
  if (value !== undefined) expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value })).status).toBe(200);
  return keyId;
}

describe('bulk approve of a selection', () => {
  it('does not approve a text changed after the page was loaded', async () => {
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'checkout.pay' });
    const keyId = ((await created.json()) as { id: string }).id;
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Jetzt bezahlen' })).status).toBe(200);

    // The reviewer reads "Jetzt bezahlen" and ticks the key.
    const page = await reviewer.get(`/portal/projects/${p.projectId}?q=checkout.pay&lang=de`);
    expect(page.text).toContain('>Jetzt bezahlen</textarea>');
    const fields = bulkFields(page.text, [keyId], 'approved');
    expect(fields.key).toEqual([keyId]);

    // A translator changes the text meanwhile.
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Jetzt kostenlos bezahlen!!' })).status).toBe(200);

    // The reviewer clicks "Apply to selected".
    await reviewer.post(`/portal/projects/${p.projectId}/bulk`, fields);

    // The text the reviewer never saw must not have become approved.
    const [row] = await t.runtime.deps.sql<{ value: string; status: string }[]>`select value, status from translations where key_id = ${keyId} and language = 'de'`;
    expect(row).toEqual({ value: 'Jetzt kostenlos bezahlen!!', status: 'draft' });
  });

  it('says so on the editor, with the selection kept and the value as it is now, and applies once it is shown', async () => {
    const keyId = await newKey('cart.total', 'Summe');
    const page = await reviewer.get(`/portal/projects/${p.projectId}?q=cart.total&lang=de`);
    const fields = bulkFields(page.text, [keyId], 'approved');
    const [row] = await t.runtime.deps.sql<{ version: string }[]>`select version::text from translations where key_id = ${keyId} and language = 'de'`;
    expect(fields.shown).toContain(`${keyId}/de/${row!.version}`);
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Gesamtsumme' })).status).toBe(200);

    const refused = await reviewer.post(`/portal/projects/${p.projectId}/bulk`, { ...fields, return_to: `/portal/projects/${p.projectId}?q=cart.total&lang=de` });
    expect(refused.status).toBe(412);
    expect(decode(refused.text)).toContain('Nothing was changed: 1 of the selected values changed since this page was loaded');
    expect(refused.text).toContain('>Gesamtsumme</textarea>');
    expect(refused.text).toMatch(new RegExp(`<input type="checkbox" name="key" value="${keyId}" form="bulk"[^>]*checked`));
    expect(await stored(keyId)).toEqual({ value: 'Gesamtsumme', status: 'draft' });

    // The page it answered shows the new text: applied from there, it approves it.
    const again = bulkFields(refused.text, [keyId], 'approved');
    expect((await reviewer.post(`/portal/projects/${p.projectId}/bulk`, again)).status).toBe(303);
    expect(await stored(keyId)).toEqual({ value: 'Gesamtsumme', status: 'approved' });
  });

  it('does not approve a value created after the page showed none', async () => {
    const keyId = await newKey('cart.empty');
    const page = await reviewer.get(`/portal/projects/${p.projectId}?q=cart.empty&lang=de`);
    const fields = bulkFields(page.text, [keyId], 'approved');
    expect(fields.shown).toContain(`${keyId}/de/none`);
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Leer (ungeprüft)' })).status).toBe(200);

    expect((await reviewer.post(`/portal/projects/${p.projectId}/bulk`, fields)).status).toBe(412);
    expect(await stored(keyId)).toEqual({ value: 'Leer (ungeprüft)', status: 'draft' });
  });
});
