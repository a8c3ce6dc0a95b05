// The editor's actions through HTTP: a second editor's change is never silently overwritten (the
// value form carries its version: 412 with a clear message, nothing written); group rename; failed
// forms come back with the message next to their field (aria-describedby); the search, filters and
// pages are the API's; bulk actions are the API's, all or nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient } from './support/portal-client.ts';
import { signedInMember } from './support/signed-in-member.ts';

const t = useTestApp();
let p: TestProject;
let alice: PortalClient;
let bob: PortalClient;

const member = (role: string) => signedInMember(t, p.accountId, role);

async function newKey(key: string, group_name = 'home'): Promise<string> {
  const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** The version a value form of the editor page carries, for one key and language. */
function versionIn(html: string, keyId: string, language: string): string | undefined {
  const form = new RegExp(`action="/portal/projects/${p.projectId}/keys/${keyId}/values/${language}"[^]*?</form>`).exec(html)?.[0];
  return form ? /name="version" value="(\d+)"/.exec(form)?.[1] : undefined;
}

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['de', 'fr']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  alice = await member('developer');
  bob = await member('reviewer');
});

describe('two editors on one value', () => {
  it("the second save of a value someone changed meanwhile is refused with a clear message, and the first editor's text stays", async () => {
    const keyId = await newKey('home.greeting');
    await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Hallo' });
    const pageA = await alice.get(`/portal/projects/${p.projectId}?q=home.greeting&lang=de`);
    const pageB = await bob.get(`/portal/projects/${p.projectId}?q=home.greeting&lang=de`);
    const version = versionIn(pageA.text, keyId, 'de');
    expect(version).toMatch(/^\d+$/);
    expect(versionIn(pageB.text, keyId, 'de')).toBe(version);

    const path = `/portal/projects/${p.projectId}/keys/${keyId}/values/de`;
    const saved = await alice.post(path, { value: 'Hallo Alice', status: 'draft', version: version! }, { Accept: 'application/json' });
    expect(saved.status).toBe(200);
    const written = JSON.parse(saved.text);
    expect(written.version).toBeGreaterThan(Number(version));

    const refused = await bob.post(path, { value: 'Hallo Bob', status: 'review', version: version! }, { Accept: 'application/json' });
    expect(refused.status).toBe(412);
    expect(JSON.parse(refused.text)).toMatchObject({ detail: expect.stringMatching(/Someone else changed this value.*nothing was saved.*Save again/), current: { value: 'Hallo Alice', version: written.version } });
    const value = await (await t.call(p.apiKey, 'GET', `/v1/keys/${keyId}/translations/de`)).json();
    expect(value).toMatchObject({ value: 'Hallo Alice', status: 'draft' });

    // Without script the same refusal, next to the value with Bob's text kept (value-forms.test.ts),
    // nothing written. After a reload Bob saves.
    const plain = await bob.post(path, { value: 'Hallo Bob', status: 'review', version: version! });
    expect(plain.status).toBe(412);
    expect(plain.text).toContain('Someone else changed this value');
    expect(plain.text).toMatch(/>Hallo Bob<\/textarea>/);
    const reloaded = await bob.get(`/portal/projects/${p.projectId}?q=home.greeting&lang=de`);
    expect(versionIn(reloaded.text, keyId, 'de')).toBe(String(written.version));
    const ok = await bob.post(path, { value: 'Hallo Bob', status: 'review', version: String(written.version) }, { Accept: 'application/json' });
    expect(ok.status).toBe(200);
  });
});

describe('group rename in the editor', () => {
  it('renames the group shown and returns to it under its new name; a taken name is shown next to the field', async () => {
    await newKey('rename.one', 'before');
    await newKey('rename.two', 'taken');
    const view = await alice.get(`/portal/projects/${p.projectId}?group=before`);
    expect(view.text).toContain('Rename the group before to');
    const returnTo = `/portal/projects/${p.projectId}?group=before&lang=de`;

    const clash = await alice.post(`/portal/projects/${p.projectId}/groups/before/rename`, { new_name: 'taken', return_to: returnTo });
    expect(clash.status).toBe(409);
    expect(clash.text).toMatch(/<input name="new_name"[^>]*aria-invalid="true"[^>]*aria-describedby="err-rename-group-new_name"/);
    expect(clash.text).toMatch(/<p id="err-rename-group-new_name" class="field-error" role="alert">[^<]*taken/);
    // What was typed is still there, to correct.
    expect(clash.text).toMatch(/<input name="new_name"[^>]*value="taken"/);

    const invalid = await alice.post(`/portal/projects/${p.projectId}/groups/before/rename`, { new_name: 'has/slash', return_to: returnTo });
    expect(invalid.status).toBe(422);
    expect(invalid.text).toContain('id="err-rename-group-new_name"');

    const done = await alice.post(`/portal/projects/${p.projectId}/groups/before/rename`, { new_name: 'after', return_to: returnTo });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/portal/projects/${p.projectId}?group=after&lang=de`);
    const keys = await (await t.call(p.apiKey, 'GET', '/v1/keys?group=after')).json();
    expect(keys.keys.map((k: { key: string }) => k.key)).toEqual(['rename.one']);
    // A reviewer cannot.
    expect((await bob.post(`/portal/projects/${p.projectId}/groups/after/rename`, { new_name: 'x' })).status).toBe(403);
  });
});

describe('field-level errors', () => {
  it('a key name in use comes back next to the key name field, the form open', async () => {
    await newKey('dup.name');
    const res = await alice.post(`/portal/projects/${p.projectId}/keys`, { key: 'dup.name', group_name: 'dup', description: 'Said <twice>', return_to: `/portal/projects/${p.projectId}` });
    expect(res.status).toBe(409);
    // The form keeps what was typed (escaped).
    expect(res.text).toMatch(/<input name="key"[^>]*value="dup\.name"/);
    expect(res.text).toMatch(/<input name="group_name"[^>]*value="dup"/);
    expect(res.text).toMatch(/<input name="description"[^>]*value="Said &lt;twice&gt;"/);
    expect(res.text).toMatch(/<details class="card" open="">\s*<summary>New key<\/summary>/);
    expect(res.text).toMatch(/<input name="key"[^>]*aria-invalid="true"[^>]*aria-describedby="err-new-key-key"/);
    expect(res.text).toMatch(/id="err-new-key-key"[^>]*>[^<]*dup\.name/);
    const bad = await alice.post(`/portal/projects/${p.projectId}/keys`, { key: 'ok.name', group_name: 'bad/group' });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('id="err-new-key-group_name"');
  });

  it('a bulk action without a selection says so next to the action', async () => {
    const res = await alice.post(`/portal/projects/${p.projectId}/bulk`, { action: 'approved', lang: 'de' });
    expect(res.status).toBe(422);
    expect(res.text).toMatch(/<select name="action"[^>]*aria-describedby="err-bulk-action"/);
    expect(res.text).toContain('Select at least one key first');
  });
});

describe('search, filters, pages and bulk through the API use-cases', () => {
  it('pages with the API cursor, searches values, and bulk actions are all or nothing', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) ids.push(await newKey(`page.k${String(i).padStart(2, '0')}`, 'paged'));
    await t.call(p.apiKey, 'PUT', `/v1/keys/${ids[42]}/translations/fr`, { value: 'Une VALEUR cherchée' });
    const first = await alice.get(`/portal/projects/${p.projectId}?group=paged&lang=fr`);
    const next = /href="([^"]+)" rel="next"/.exec(first.text)?.[1]?.replaceAll('&amp;', '&');
    expect(next).toContain('cursor=');
    const cursor = new URL(next!, 'http://x').searchParams.get('cursor')!;
    const api = await (await t.call(p.apiKey, 'GET', '/v1/keys?group=paged&limit=50')).json();
    expect(cursor).toBe(api.next_cursor); // the same cursor as the API's
    const second = await alice.get(next!);
    expect(second.text).toContain('page.k54');
    expect(second.text).not.toContain('page.k49');
    const found = await alice.get(`/portal/projects/${p.projectId}?q=valeur%20CHERCH&lang=fr`);
    expect(found.text).toContain('page.k42');
    expect(found.text).not.toContain('page.k41');

    const foreign = await t.newProject('team');
    const theirs = await (await t.call(foreign.apiKey, 'POST', '/v1/keys', { key: 'foreign.key' })).json();
    const refused = await alice.post(`/portal/projects/${p.projectId}/bulk`, { action: 'delete', key: [ids[0]!, theirs.id] });
    expect(refused.status).toBe(404);
    expect((await t.call(p.apiKey, 'GET', `/v1/keys/${ids[0]}`)).status).toBe(200);
    expect((await t.call(foreign.apiKey, 'GET', `/v1/keys/${theirs.id}`)).status).toBe(200);
    const deleted = await alice.post(`/portal/projects/${p.projectId}/bulk`, { action: 'delete', key: [ids[0]!, ids[1]!], return_to: `/portal/projects/${p.projectId}?group=paged` });
    expect(deleted.status).toBe(303);
    // The editor it returns to says what happened.
    expect(deleted.location).toBe(`/portal/projects/${p.projectId}?group=paged&done=deleted-2`);
    expect((await alice.get(deleted.location!)).text).toContain('2 keys deleted: restore them from the Trash tab.');
    const events = await t.runtime.deps.sql`select entity_id, actor_type from domain_events where project_id = ${p.projectId} and type = 'key.deleted'`;
    expect(events.map((e) => e.entity_id).sort()).toEqual([ids[0], ids[1]].sort());
    expect(events.every((e) => e.actor_type === 'user')).toBe(true);
  });
});

describe('what the editor shows and says', () => {
  it('a page link whose cursor is not one the editor made shows the first page and says so', async () => {
    for (const bad of ['not-a-cursor', 'eyJ4IjoxfQ', '%00', 'x'.repeat(5000)]) {
      const res = await alice.get(`/portal/projects/${p.projectId}?lang=de&cursor=${bad}`);
      expect(res.status).toBe(200);
      expect(res.text).toContain('That page link is not valid any more (or was changed): this is the first page.');
      expect(res.text).not.toContain('next_cursor');
    }
  });

  it('a bulk status change says how many values changed, or that none did and why', async () => {
    const keyId = await newKey('said.one');
    await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/fr`, { value: 'Un', status: 'draft' });
    const base = `/portal/projects/${p.projectId}`;
    const approved = await bob.post(`${base}/bulk`, { action: 'approved', lang: 'fr', key: keyId, return_to: `${base}?lang=fr` });
    expect(approved.location).toBe(`${base}?lang=fr&done=approved-1`);
    expect((await bob.get(approved.location!)).text).toContain('1 value approved.');
    const again = await bob.post(`${base}/bulk`, { action: 'approved', lang: 'fr', key: keyId, return_to: `${base}?lang=fr` });
    expect((await bob.get(again.location!)).text).toContain('Nothing changed: the selected keys have no value in the shown languages you may edit');
    // Only codes and counts are read back: anything else in done= shows nothing.
    const forged = await bob.get(`${base}?done=${encodeURIComponent('<b>Call us</b>')}`);
    expect(forged.status).toBe(200);
    expect(forged.text).not.toContain('Call us');
  });

  it('shows the source language beside a translator\'s own by default, and keeps the languages chosen last', async () => {
    // This project's source language is de, its first language.
    const tom = await signedInMember(t, p.accountId, 'translator', { emailPrefix: 'fr-translator', languages: ['fr'] });
    const shown = (html: string) => [...html.matchAll(/<input type="checkbox" name="lang" value="([^"]+)"[^>]*checked/g)].map((m) => m[1]);
    const base = `/portal/projects/${p.projectId}`;
    expect(shown((await tom.get(base)).text)).toEqual(['de', 'fr']);
    // A choice sticks: the tab link (no lang) shows it again, until another choice.
    expect(shown((await tom.get(`${base}?lang=fr`)).text)).toEqual(['fr']);
    expect(shown((await tom.get(base)).text)).toEqual(['fr']);
    expect(shown((await tom.get(`${base}?lang=de&lang=fr`)).text)).toEqual(['de', 'fr']);
    expect(shown((await tom.get(base)).text)).toEqual(['de', 'fr']);
    // A translator's bulk labels name only the languages they may change.
    expect((await tom.get(base)).text).toContain('Send values to review (fr)');
    // No provider here: Translate missing says it fills from memory only, before it is clicked.
    expect((await tom.get(base)).text).toContain('from the translation memory only (no machine translation provider is configured on this server)');
  });

  it('a refused language or invitation is said on its own tab, not on an error page', async () => {
    const owner = await member('owner');
    const base = `/portal/projects/${p.projectId}`;
    const again = await owner.post(`${base}/languages`, { code: 'de' });
    expect(again.status).toBe(409);
    expect(again.text.replace(/&#39;|&#x27;/g, "'")).toContain("Language 'de' is already registered");
    expect(again.text).toContain(`action="${base}/languages"`);
    const bad = await owner.post(`${base}/languages`, { code: 'not a lang!' });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('not a lang!:');
    expect(bad.text).not.toContain('That did not work');

    const invite = await owner.post(`/portal/accounts/${p.accountId}/invites`, { role: 'translator', languages: 'de, zz!' });
    expect(invite.status).toBe(422);
    expect(invite.text).toContain(`action="/portal/accounts/${p.accountId}/invites"`);
    expect(invite.text).not.toContain('That did not work');
    expect(await t.runtime.deps.sql`select 1 from invites where account_id = ${p.accountId}`).toHaveLength(0);
  });
});
