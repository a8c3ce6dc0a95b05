// Outdated values in the portal's editor, through HTTP as a browser sends the forms: the mark and its
// "Mark up to date" form on translations whose source text changed after them, the "Outdated in"
// filter, the mark's own form over the versions the page showed (a text or a source changed since
// is not confirmed unseen), who may confirm what, and the script's saves saying whether the value is
// still outdated. test/translations/outdated.test.ts covers the rule through the API.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient } from './support/portal-client.ts';
import { signedInMember } from './support/signed-in-member.ts';
import { formFields } from './support/form-fields.ts';

const t = useTestApp();
let p: TestProject;
let reviewer: PortalClient;
let translator: PortalClient;

const put = async (keyId: string, language: string, value: string, status = 'draft') =>
  expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/${language}`, { value, status })).status).toBe(200);
const stored = async (keyId: string, language: string) => (await t.call(p.apiKey, 'GET', `/v1/keys/${keyId}/translations/${language}`)).json();

/** A key with en (the source), de and fr written, then its English text changed: de and fr outdated. */
async function outdatedKey(key: string, deStatus = 'approved'): Promise<string> {
  const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name: 'home' });
  const keyId = ((await res.json()) as { id: string }).id;
  await put(keyId, 'en', 'Welcome', 'approved');
  await put(keyId, 'de', 'Willkommen', deStatus);
  await put(keyId, 'fr', 'Bienvenue', 'draft');
  await put(keyId, 'en', 'Welcome back', 'approved');
  return keyId;
}

const editor = (query: string) => `/portal/projects/${p.projectId}?lang=en&lang=de&lang=fr&${query}`;
const markAction = (keyId: string, language: string) => `/portal/projects/${p.projectId}/keys/${keyId}/values/${language}/up-to-date`;
/** What "Mark up to date" sends: its value form's fields (the button's formaction posts that form). */
const markFields = (html: string, keyId: string, language: string) => formFields(html, `/portal/projects/${p.projectId}/keys/${keyId}/values/${language}`);
/** The table cell of one key and language (from its value form to the next cell). */
const cell = (html: string, keyId: string, language: string) =>
  new RegExp(`<form method="post" action="/portal/projects/${p.projectId}/keys/${keyId}/values/${language}"[^]*?</td>`).exec(html)?.[0] ?? '';

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['en', 'de', 'fr']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  reviewer = await signedInMember(t, p.accountId, 'reviewer');
  translator = await signedInMember(t, p.accountId, 'translator', { languages: ['de', 'fr'] });
});

describe('the editor shows outdated translations', () => {
  it('marks them beside the value, described to assistive technology, never the source; the filter lists them', async () => {
    const keyId = await outdatedKey('home.marked');
    const current = await outdatedKey('home.current');
    await put(current, 'de', 'Willkommen zurück', 'approved');
    await put(current, 'fr', 'Bon retour', 'draft');

    const page = (await reviewer.get(editor('q=home.'))).text;
    const de = cell(page, keyId, 'de');
    expect(de).toContain('Outdated: the source text changed after this translation');
    expect(de).toContain(`formaction="${markAction(keyId, 'de')}"`);
    expect(de).toContain(`aria-describedby="v-${keyId}-de-msg v-${keyId}-de-q v-${keyId}-de-outdated"`);
    expect(cell(page, keyId, 'en')).not.toContain('Outdated');
    expect(cell(page, current, 'de')).not.toContain('Outdated');

    const filtered = (await reviewer.get(editor('q=home.&outdated=de'))).text;
    expect(filtered).toContain(`v-${keyId}-de`);
    expect(filtered).not.toContain(`v-${current}-de`);
    expect(filtered).toMatch(/<option value="de" selected="">de<\/option>/);
    expect((await reviewer.get(editor('q=home.&outdated=en'))).text).toContain('No key matches these filters.');
  });
});

describe('"Mark up to date"', () => {
  it('clears the mark over the versions shown, comes back to the value, and is in Activity', async () => {
    const keyId = await outdatedKey('home.confirm');
    const page = (await reviewer.get(editor('q=home.confirm'))).text;
    const fields = markFields(page, keyId, 'de');
    // The source text's number is its version when its last write changed the text, as here.
    expect(fields).toMatchObject({ version: String((await stored(keyId, 'de')).version), source_rev: String((await stored(keyId, 'en')).version) });
    const res = await reviewer.post(markAction(keyId, 'de'), fields);
    expect(res.status).toBe(303);
    expect(res.location).toMatch(new RegExp(`#v-${keyId}-de$`));
    expect(await stored(keyId, 'de')).toMatchObject({ value: 'Willkommen', status: 'approved', outdated: false });
    expect((await stored(keyId, 'fr')).outdated).toBe(true);
    const after = (await reviewer.get(editor('q=home.confirm'))).text;
    expect(cell(after, keyId, 'de')).not.toContain('Outdated');
    expect(cell(after, keyId, 'fr')).toContain('Outdated');
    const activity = (await reviewer.get(`/portal/projects/${p.projectId}/activity`)).text;
    expect(activity).toMatch(/marked <[^>]+>home\.confirm<\/[^>]+> \(de\) up to date with its source text/);
  });

  it('refuses over a source or a value changed since the page was loaded: the editor says so, nothing is marked', async () => {
    const keyId = await outdatedKey('home.stale');
    const page = (await reviewer.get(editor('q=home.stale'))).text;
    const de = markFields(page, keyId, 'de');
    const fr = markFields(page, keyId, 'fr');
    await put(keyId, 'en', 'Welcome back, friend', 'approved');
    const refused = await reviewer.post(markAction(keyId, 'de'), de);
    expect(refused.status).toBe(303);
    const shown = await reviewer.follow(refused);
    expect(shown.text).toContain('role="alert">Not marked up to date: The source text of this key (en) was changed since you read it');
    expect((await stored(keyId, 'de')).outdated).toBe(true);

    const fresh = markFields((await reviewer.get(editor('q=home.stale'))).text, keyId, 'fr');
    await put(keyId, 'fr', 'Bienvenue', 'review');
    const changed = await reviewer.follow(await reviewer.post(markAction(keyId, 'fr'), fresh));
    expect(changed.text).toContain('role="alert">Not marked up to date: The &#39;fr&#39; value was changed since you read it');
    expect((await stored(keyId, 'fr')).outdated).toBe(true);
    expect(fr.version).not.toBe(String((await stored(keyId, 'fr')).version));
  });

  it('a translator confirms their own languages, not an approved value (a reviewer\'s call) nor another language', async () => {
    const keyId = await outdatedKey('home.roles');
    const page = (await translator.get(editor('q=home.roles'))).text;
    // The mark shows for everyone; the button only where this member may write.
    expect(cell(page, keyId, 'de')).toContain('Outdated');
    expect(cell(page, keyId, 'de')).not.toContain('>Mark up to date<');
    expect(cell(page, keyId, 'fr')).toContain('>Mark up to date<');
    const approved = await translator.post(markAction(keyId, 'de'), { version: String((await stored(keyId, 'de')).version) });
    expect(approved.status).toBe(403);
    expect((await stored(keyId, 'de')).outdated).toBe(true);
    const ok = await translator.post(markAction(keyId, 'fr'), markFields(page, keyId, 'fr'));
    expect(ok.status).toBe(303);
    expect((await stored(keyId, 'fr')).outdated).toBe(false);
    const other = await outdatedKey('home.roles.it');
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'it' })).status).toBe(201);
    await put(other, 'it', 'Benvenuto');
    await put(other, 'en', 'Welcome, again', 'approved');
    expect((await translator.post(markAction(other, 'it'), {})).status).toBe(403);
    expect((await stored(other, 'it')).outdated).toBe(true);
  });

  it("the script's save answers whether the value is still outdated: a new text is not, the same text again is", async () => {
    const keyId = await outdatedKey('home.inline', 'draft');
    const path = `/portal/projects/${p.projectId}/keys/${keyId}/values/de`;
    const same = await reviewer.post(path, { value: 'Willkommen', status: 'review', version: String((await stored(keyId, 'de')).version) }, { Accept: 'application/json' });
    expect(same.status).toBe(200);
    expect(JSON.parse(same.text)).toMatchObject({ value: 'Willkommen', status: 'review', outdated: true });
    const changed = await reviewer.post(path, { value: 'Willkommen zurück', status: 'review', version: String((await stored(keyId, 'de')).version) }, { Accept: 'application/json' });
    expect(JSON.parse(changed.text)).toMatchObject({ value: 'Willkommen zurück', outdated: false });
  });
});
