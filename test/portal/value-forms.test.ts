// The editor's value forms through HTTP, as a browser without script sends them: a save refused
// because someone else changed (or created) the value comes back as the editor with the typed text
// kept, the refusal next to that value and the stored text beside it (the form then names the
// stored version: Save again replaces it knowingly; the script gets the same as JSON); a value that was empty when the page loaded is saved
// create-only (version=none), so two tabs never silently overwrite each other; every value field
// and display carries its language and writing direction.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient } from './support/portal-client.ts';
import { signedInMember } from './support/signed-in-member.ts';

const t = useTestApp();
let p: TestProject;
let alice: PortalClient;
let bob: PortalClient;

const member = (role: string) => signedInMember(t, p.accountId, role);

async function newKey(key: string): Promise<string> {
  const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name: 'home' });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** The value form of one key and language on an editor page. */
function valueForm(html: string, keyId: string, language: string): string | undefined {
  return new RegExp(`<form method="post" action="/portal/projects/${p.projectId}/keys/${keyId}/values/${language}"[^]*?</form>`).exec(html)?.[0];
}

const stored = async (keyId: string, language: string) => (await t.call(p.apiKey, 'GET', `/v1/keys/${keyId}/translations/${language}`)).json();

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['de', 'ar', 'he']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  alice = await member('developer');
  bob = await member('reviewer');
});

describe('a refused save without script', () => {
  it('comes back as the editor, the typed text kept in its field, the refusal next to that value, nothing written', async () => {
    const keyId = await newKey('home.kept');
    await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Hallo' });
    const editor = `/portal/projects/${p.projectId}?q=home.kept&lang=de`;
    const version = /name="version" value="(\d+)"/.exec(valueForm((await bob.get(editor)).text, keyId, 'de')!)![1]!;
    await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Hallo von Alice' });

    const path = `/portal/projects/${p.projectId}/keys/${keyId}/values/de`;
    const refused = await bob.post(path, { value: 'Bobs <neuer> Text', status: 'review', version, return_to: editor });
    expect(refused.status).toBe(412);
    const form = valueForm(refused.text, keyId, 'de')!;
    expect(form).toBeDefined();
    // The typed text, escaped, in the value's own field; the status chosen; the version now stored,
    // whose text is shown beside it (so a second Save replaces what it shows, knowingly).
    const now = await stored(keyId, 'de');
    expect(form).toMatch(/<textarea id="v-[^"]+"[^>]*aria-invalid="true"[^>]*>Bobs &lt;neuer&gt; Text<\/textarea>/);
    expect(form).toMatch(/<option value="review" selected="">/);
    expect(form).toContain(`name="version" value="${now.version}"`);
    // The message in the element the textarea is described by.
    const id = `v-${keyId}-de`;
    expect(form).toContain(`aria-describedby="${id}-msg ${id}-q"`);
    expect(form).toMatch(new RegExp(`<output id="${id}-msg" class="saved error"[^>]*>Someone else changed this value since the page was loaded; nothing was saved`));
    expect(form).toContain('Stored now: <q lang="de" dir="ltr">Hallo von Alice</q> (draft)');
    expect(form).not.toMatch(/Reload/);
    expect(await stored(keyId, 'de')).toMatchObject({ value: 'Hallo von Alice' });

    // With script the same refusal, as JSON, with the stored value for the script to show.
    const json = await bob.post(path, { value: 'Bobs Text', status: 'review', version }, { Accept: 'application/json' });
    expect(json.status).toBe(412);
    expect(JSON.parse(json.text)).toEqual({
      detail: expect.stringMatching(/^Someone else changed this value since the page was loaded; nothing was saved\. .*Save again/),
      current: { value: 'Hallo von Alice', status: 'draft', version: now.version },
    });

    // Sent again from the page that showed their text: it replaces it, knowingly.
    const again = await bob.post(path, { value: 'Bobs Text', status: 'review', version: String(now.version), return_to: editor });
    expect(again.status).toBe(303);
    expect(await stored(keyId, 'de')).toMatchObject({ value: 'Bobs Text', status: 'review' });
  });

  it("keeps the text when the value's key is no longer on the page the form came from", async () => {
    const keyId = await newKey('home.filtered');
    const editor = `/portal/projects/${p.projectId}?missing=de&q=home.filtered&lang=de`;
    const page = await bob.get(editor);
    expect(valueForm(page.text, keyId, 'de')).toContain('name="version" value="none"');
    // Someone fills it meanwhile: the "missing in de" filter no longer lists the key.
    await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Schon da' });
    const refused = await bob.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de`, { value: 'Mein Text', status: 'draft', version: 'none', return_to: editor });
    expect(refused.status).toBe(412);
    expect(valueForm(refused.text, keyId, 'de')).toBeUndefined();
    expect(refused.text).toContain('home.filtered in de: Someone else changed this value');
    expect(refused.text).toMatch(/Your text \(not saved\)\s*<textarea[^>]*readonly=""[^>]*>Mein Text<\/textarea>/);
    expect(await stored(keyId, 'de')).toMatchObject({ value: 'Schon da' });
  });

  it('an invalid value is shown at the value too, text kept (422)', async () => {
    const keyId = await newKey('home.invalid');
    const editor = `/portal/projects/${p.projectId}?q=home.invalid&lang=de`;
    const res = await alice.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de`, { value: 'ok', status: 'final', version: 'none', return_to: editor });
    expect(res.status).toBe(422);
    expect(valueForm(res.text, keyId, 'de')).toMatch(/<output id="v-[^"]+-msg" class="saved error"[^>]*>Not saved: status must be draft, review or approved/);
    expect(valueForm(res.text, keyId, 'de')).toMatch(/>ok<\/textarea>/);
  });
});

describe('a value that was empty when the page loaded', () => {
  it('is saved create-only: of two tabs, the second is refused and the first text stays', async () => {
    const keyId = await newKey('home.empty');
    const editor = `/portal/projects/${p.projectId}?q=home.empty&lang=de`;
    const formA = valueForm((await alice.get(editor)).text, keyId, 'de')!;
    const formB = valueForm((await bob.get(editor)).text, keyId, 'de')!;
    expect(formA).toContain('name="version" value="none"');
    expect(formB).toContain('name="version" value="none"');

    const path = `/portal/projects/${p.projectId}/keys/${keyId}/values/de`;
    const first = await alice.post(path, { value: 'Erster', status: 'draft', version: 'none' }, { Accept: 'application/json' });
    expect(first.status).toBe(200);
    const written = JSON.parse(first.text);
    const second = await bob.post(path, { value: 'Zweiter', status: 'draft', version: 'none' }, { Accept: 'application/json' });
    expect(second.status).toBe(412);
    expect(JSON.parse(second.text)).toEqual({
      detail: 'Someone else changed this value since the page was loaded; nothing was saved. Their version is shown below your text: Save again to replace it with yours.',
      current: { value: 'Erster', status: 'draft', version: written.version },
    });
    const plain = await bob.post(path, { value: 'Zweiter', status: 'draft', version: 'none', return_to: editor });
    expect(plain.status).toBe(412);
    expect(plain.text).toMatch(/>Zweiter<\/textarea>/);
    expect(await stored(keyId, 'de')).toMatchObject({ value: 'Erster', version: written.version });
    // The first tab saves again with the version its save answered (the script carries it forward).
    expect((await alice.post(path, { value: 'Erster, neu', status: 'draft', version: String(written.version) }, { Accept: 'application/json' })).status).toBe(200);
    // A form without a version (an older page) still saves as before.
    expect((await alice.post(path, { value: 'Ohne Version', status: 'draft' })).status).toBe(303);
  });
});

describe('languages written right to left', () => {
  it('value fields and displays carry lang and dir', async () => {
    const keyId = await newKey('home.rtl');
    await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/ar`, { value: 'مرحبا بكم' });
    await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/he`, { value: 'שלום' });
    const page = (await alice.get(`/portal/projects/${p.projectId}?q=home.rtl&lang=ar&lang=he&lang=de`)).text;
    expect(valueForm(page, keyId, 'ar')).toMatch(/<textarea id="v-[^"]+-ar"[^>]*lang="ar" dir="rtl">مرحبا بكم<\/textarea>/);
    expect(valueForm(page, keyId, 'he')).toMatch(/<textarea id="v-[^"]+-he"[^>]*lang="he" dir="rtl">שלום<\/textarea>/);
    expect(valueForm(page, keyId, 'de')).toMatch(/<textarea id="v-[^"]+-de"[^>]*lang="de" dir="ltr">/);
    const history = (await alice.get(`/portal/projects/${p.projectId}/keys/${keyId}/values/ar/history`)).text;
    expect(history).toContain('<span lang="ar" dir="rtl">مرحبا بكم</span>');
    const activity = (await alice.get(`/portal/projects/${p.projectId}/activity`)).text;
    expect(activity).toContain('<span lang="he" dir="rtl">שלום</span>');
  });
});
