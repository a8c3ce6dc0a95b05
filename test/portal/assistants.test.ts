// The translator's assistants in the portal, through HTTP: translation memory suggestions (the
// use-case of GET /v1/keys/{id}/suggestions/{language}), "Translate missing" (the use-case of
// POST /v1/translate/{language}, with DeepL's protocol emulated) and its failures shown as
// messages with nothing written, who may use it, quality warnings at each value (and in the inline
// save's answer), and the "has problems" filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestProject } from '../support/test-app.ts';
import { EMULATOR_KEYS, startMtEmulator, type MtEmulator } from '../support/mt-emulators.ts';
import { hashPassword } from '../../core/users/password.ts';
import { createSession } from '../../core/users/sessions.ts';
import { PortalClient } from './support/portal-client.ts';

type App = TestApp & { close(): Promise<void> };
let emulator: MtEmulator;
let t: App;
let off: App;
let seq = 0;

beforeAll(async () => {
  emulator = await startMtEmulator();
  t = await startTestApp({ env: { DEEPL_API_KEY: EMULATOR_KEYS.deepl, DEEPL_API_URL: emulator.url } });
  off = await startTestApp();
});
afterAll(async () => {
  await t?.close();
  await off?.close();
  await emulator?.close();
});

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

async function member(app: TestApp, accountId: string, role: string, languages: string[] | null = null): Promise<PortalClient> {
  const [user] = await app.runtime.deps.sql<{ id: string }[]>`
    insert into users (email, password_hash) values (${`${role}-${seq++}@example.com`}, ${await hashPassword('not used here')}) returning id`;
  await app.runtime.deps.sql`insert into memberships (user_id, account_id, role, languages) values (${user!.id}, ${accountId}, ${role}, ${languages})`;
  const session = await createSession(app.runtime.deps, user!.id);
  const client = new PortalClient(app.app);
  client.cookies.set('tms_session', session.token);
  client.csrf = session.csrf;
  return client;
}

async function project(app: TestApp, languages = ['en', 'de', 'fr'], accountId?: string): Promise<TestProject> {
  let p: TestProject;
  if (accountId) {
    const created = await json(await app.admin('POST', `/accounts/${accountId}/projects`, { name: 'Second app' }));
    p = { accountId, projectId: created.id, apiKey: created.api_key.key, apiKeyId: created.api_key.id };
  } else p = await app.newProject('team');
  for (const code of languages) await json(await app.call(p.apiKey, 'POST', '/v1/languages', { code }));
  return p;
}

async function key(app: TestApp, p: TestProject, name: string, values: Record<string, [string, string]>, group?: string): Promise<string> {
  const k = await json(await app.call(p.apiKey, 'POST', '/v1/keys', { key: name, ...(group ? { group_name: group } : {}) }));
  for (const [language, [value, status]] of Object.entries(values)) {
    await json(await app.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/${language}`, { value, status }));
  }
  return k.id;
}

async function values(app: TestApp, p: TestProject, language: string): Promise<Record<string, { value: string; status: string }>> {
  const res = await app.call(p.apiKey, 'GET', `/v1/translations/${language}?status=all`);
  if (res.status === 404) return {};
  return (await json(res)).translations;
}
const units = async (app: TestApp, p: TestProject) => (await json(await app.call(p.apiKey, 'GET', '/v1/usage'))).translation_units_used as number;
/** The page's text without tags, spaces collapsed: what a reader (or a screen reader) gets. */
const visible = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ');

describe('suggestions in the editor', () => {
  it("answers the memory's suggestions for a value as JSON for the script, and as a page without script", async () => {
    const a = await project(t);
    await key(t, a, 'memory.save', { en: ['Save changes', 'approved'], de: ['Änderungen sichern', 'approved'] });
    await key(t, a, 'memory.near', { en: ['Save all changes', 'approved'], de: ['Alle Änderungen sichern', 'approved'] });
    const b = await project(t, ['en', 'de'], a.accountId);
    const keyId = await key(t, b, 'toolbar.save', { en: ['Save changes', 'approved'] });
    const dev = await member(t, a.accountId, 'translator');

    const editor = await dev.get(`/portal/projects/${b.projectId}?lang=de`);
    const href = `/portal/projects/${b.projectId}/keys/${keyId}/suggestions/de`;
    expect(editor.text).toContain(`href="${href}"`);
    expect(editor.text).toMatch(/aria-label="Suggestions for toolbar\.save in de"/);

    const res = await dev.request('GET', href, { headers: { Accept: 'application/json' } });
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text);
    expect(body.source).toEqual({ language: 'en', value: 'Save changes' });
    expect(body.suggestions[0]).toMatchObject({ value: 'Änderungen sichern', score: 1, match: 'exact', origin: { project_id: a.projectId, key: 'memory.save' } });
    expect(body.suggestions.map((s: { value: string }) => s.value)).toContain('Alle Änderungen sichern');

    const plain = await dev.get(href);
    expect(plain.status).toBe(200);
    expect(visible(plain.text)).toMatch(/Änderungen sichern 100 % exact match, from project \/ memory\.save, \d{4}-\d\d-\d\d/);

    // Another account's member does not even learn the key exists.
    const stranger = await member(t, (await t.newProject('team')).accountId, 'owner');
    expect((await stranger.request('GET', href, { headers: { Accept: 'application/json' } })).status).toBe(404);
  });
});

describe('Translate missing', () => {
  it('fills the missing values of the chosen language (memory first, then the provider) as drafts and shows what it did', async () => {
    const a = await project(t);
    await key(t, a, 'm', { en: ['Save changes', 'approved'], de: ['Änderungen sichern', 'approved'] });
    const b = await project(t, ['en', 'de', 'fr'], a.accountId);
    await key(t, b, 'toolbar.save', { en: ['Save changes', 'approved'] });
    await key(t, b, 'greeting', { en: ['Hello {name}!', 'approved'] });
    await key(t, b, 'kept', { en: ['Welcome', 'approved'], de: ['Servus', 'approved'] });
    await key(t, b, 'nosource', {});
    await key(t, b, 'other', { en: ['Hello world', 'approved'] }, 'elsewhere');
    const translator = await member(t, a.accountId, 'translator');
    const editor = await translator.get(`/portal/projects/${b.projectId}?lang=de&lang=en`);
    // The shown languages the member may fill, never the source language.
    expect(editor.text).toMatch(/<select name="language"><option value="de">de<\/option><\/select>/);

    const sent = await translator.post(`/portal/projects/${b.projectId}/translate`, { language: 'de', return_to: `/portal/projects/${b.projectId}?lang=de&group=Default` , group: 'Default' });
    // Post/Redirect/Get: the editor as the form was sent from, with what was done (a reload translates nothing again).
    expect(sent.location).toMatch(new RegExp(`^/portal/projects/${b.projectId}\\?lang=de&group=Default&outcome=[0-9a-f-]{36}$`));
    const res = await translator.follow(sent);
    expect(res.status).toBe(200);
    const text = visible(res.text);
    expect(text).toContain('2 values translated into de as drafts: 1 from translation memory (free), 1 from deepl, 1 translation unit charged.');
    expect(text).toContain('Skipped 1: nosource : no value in the source language');
    const de = await values(t, b, 'de');
    expect(de).toEqual({
      'toolbar.save': { value: 'Änderungen sichern', status: 'draft', group: 'Default' },
      greeting: { value: 'Hallo {name}!', status: 'draft', group: 'Default' },
      kept: { value: 'Servus', status: 'approved', group: 'Default' },
    });
    // The group filter was honoured: the other group is still missing. The page shows the new values.
    expect(de.other).toBeUndefined();
    expect(res.text).toContain('Hallo {name}!');
    expect(await units(t, b)).toBe(1);
    const events = await t.runtime.deps.sql`select actor_type from domain_events where project_id = ${b.projectId} and type like 'translation%' order by id desc limit 1`;
    expect(events[0]!.actor_type).toBe('user');
  });

  it('the quota, the provider and bad input are messages at the action, and nothing is written', async () => {
    const p = await project(t);
    for (const name of ['a', 'b', 'c']) await key(t, p, name, { en: [`Save ${name}`, 'approved'] });
    const dev = await member(t, p.accountId, 'developer');
    const path = `/portal/projects/${p.projectId}/translate`;
    const returnTo = `/portal/projects/${p.projectId}?lang=de`;

    await json(await t.admin('PATCH', `/accounts/${p.accountId}`, { translation_unit_allowance: 1 }));
    const calls = emulator.calls.length;
    const quota = await dev.post(path, { language: 'de', return_to: returnTo });
    expect(quota.status).toBe(402);
    expect(visible(quota.text)).toMatch(/Not translated: this would exceed the account's translation-unit quota \(it would bring this cycle's translation units to 3, over the limit of 2; the allowance renews on \d{4}-\d\d-\d\d\)\. Nothing was written\./);
    expect(quota.text).toMatch(/<div class="notice notice-error" role="alert">/);
    expect(emulator.calls.length).toBe(calls);
    await json(await t.admin('PATCH', `/accounts/${p.accountId}`, { translation_unit_allowance: 1000 }));

    emulator.failNext(456);
    const upstream = await dev.post(path, { language: 'de', return_to: returnTo });
    expect(upstream.status).toBe(502);
    expect(visible(upstream.text)).toMatch(/Not translated: the machine translation provider failed\. deepl answered 456.*Nothing was written/);

    const source = await dev.post(path, { language: 'en', return_to: returnTo });
    expect(source.status).toBe(422);
    expect(visible(source.text)).toContain("Not translated: en is the project's source language: there is nothing to translate it from. Nothing was written.");

    expect(await values(t, p, 'de')).toEqual({});
    expect(await units(t, p)).toBe(0);
  });

  it('without machine translation, memory still fills and the page says machine translation is off', async () => {
    const a = await project(off);
    await key(off, a, 'm', { en: ['Save changes', 'approved'], de: ['Sichern', 'approved'] });
    const b = await project(off, ['en', 'de'], a.accountId);
    await key(off, b, 'same', { en: ['Save changes', 'approved'] });
    await key(off, b, 'new', { en: ['Something new', 'approved'] });
    const dev = await member(off, a.accountId, 'developer');
    const res = await dev.follow(await dev.post(`/portal/projects/${b.projectId}/translate`, { language: 'de', return_to: `/portal/projects/${b.projectId}?lang=de` }));
    expect(res.status).toBe(200);
    const text = visible(res.text);
    expect(text).toContain('1 value translated into de as drafts: 1 from translation memory (free), 0 from machine translation, 0 translation units charged.');
    expect(text).toContain('Machine translation is off on this server: only the translation memory filled values.');
    expect(text).toContain('new : machine translation is off');
    expect(Object.keys(await values(off, b, 'de'))).toEqual(['same']);
  });

  it('a member who may not write the language neither sees nor uses it; a stranger gets 404', async () => {
    const p = await project(t);
    await key(t, p, 'a', { en: ['Save', 'approved'] });
    // A translator limited to French reads German (read only) like a viewer of it.
    const frOnly = await member(t, p.accountId, 'translator', ['fr']);
    const page = await frOnly.get(`/portal/projects/${p.projectId}?lang=de`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Translate missing');
    expect(page.text).not.toContain(`/translate"`);
    const calls = emulator.calls.length;
    const refused = await frOnly.post(`/portal/projects/${p.projectId}/translate`, { language: 'de' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Your membership does not include de');
    const stranger = await member(t, (await t.newProject('team')).accountId, 'owner');
    expect((await stranger.post(`/portal/projects/${p.projectId}/translate`, { language: 'de' })).status).toBe(404);
    // Without the CSRF token: refused before anything runs.
    const owner = await member(t, p.accountId, 'owner');
    expect((await owner.post(`/portal/projects/${p.projectId}/translate`, { language: 'de', _csrf: 'wrong' })).status).toBe(403);
    expect(emulator.calls.length).toBe(calls);
    expect(await values(t, p, 'de')).toEqual({});
    // Their own language they may fill.
    expect((await frOnly.post(`/portal/projects/${p.projectId}/translate`, { language: 'fr' })).status).toBe(303);
    expect((await values(t, p, 'fr')).a).toEqual({ value: 'Enregistrer', status: 'draft', group: 'Default' });
  });
});

describe('quality warnings and the "has problems" filter', () => {
  it('shows each value\'s warnings as text, answers them on an inline save, and filters the keys with problems', async () => {
    const p = await project(t);
    const broken = await key(t, p, 'home.greeting', { en: ['Hello {name}!', 'approved'], de: ['Hallo!', 'draft'] });
    await key(t, p, 'home.fine', { en: ['Save', 'approved'], de: ['Speichern', 'draft'] });
    await key(t, p, 'home.tags', { en: ['<b>Bold</b>', 'approved'], fr: ['<b>Gras', 'draft'] });
    await key(t, p, 'home.missing', { en: ['Hello {name}', 'approved'] });
    const dev = await member(t, p.accountId, 'developer');

    const page = await dev.get(`/portal/projects/${p.projectId}?lang=de&lang=fr`);
    const id = `v-${broken}-de`;
    expect(page.text).toContain(`aria-describedby="${id}-msg ${id}-q"`);
    const box = new RegExp(`<div id="${id}-q" class="quality">([^]*?)</div>`).exec(page.text)![1]!;
    expect(visible(box).trim()).toBe('⚠ 1 quality warning Placeholders: Missing placeholder {name}');
    expect(visible(page.text)).toContain('Tags: Unbalanced tags: <b> is never closed');
    expect(page.text.match(/class="warn-title"/g)).toHaveLength(2);

    const path = `/portal/projects/${p.projectId}/keys/${broken}/values/de`;
    const fixed = JSON.parse((await dev.post(path, { value: 'Hallo {name}!', status: 'draft' }, { Accept: 'application/json' })).text);
    expect(fixed).toMatchObject({ value: 'Hallo {name}!', warnings: [] });
    const again = JSON.parse((await dev.post(path, { value: 'Hallo {nam}', status: 'draft' }, { Accept: 'application/json' })).text);
    expect(again.warnings.map((w: { check: string }) => w.check)).toEqual(['placeholders', 'placeholders', 'punctuation']);

    const problems = await dev.get(`/portal/projects/${p.projectId}?lang=de&problems=de`);
    expect(problems.text).toContain('home.greeting');
    expect(problems.text).not.toContain('home.fine');
    expect(problems.text).not.toContain('home.tags');
    expect(problems.text).not.toContain('home.missing');
    expect(visible(problems.text)).toContain('Checked 2 keys for problems in de.');
    expect(problems.text).toMatch(/<option value="de" selected="">de<\/option>/);
    const fr = await dev.get(`/portal/projects/${p.projectId}?lang=fr&problems=fr`);
    expect(fr.text).toContain('home.tags');
    expect(fr.text).not.toContain('home.greeting');
    // With the other filters: none of the group "elsewhere".
    expect(visible((await dev.get(`/portal/projects/${p.projectId}?lang=de&problems=de&group=elsewhere`)).text)).toContain('No key matches these filters.');
  });

  it('pages through the problems with the scan cursor', async () => {
    const p = await project(t, ['en', 'de']);
    // 110 keys in two statements (the API one by one would take long); every other German value lost its placeholder.
    const names = Array.from({ length: 110 }, (_, i) => `bulk.k${String(i).padStart(3, '0')}`);
    const sql = t.runtime.deps.sql;
    await sql`insert into translation_keys (project_id, key, group_name) select ${p.projectId}::uuid, n, 'bulk' from unnest(${names}::text[]) as n`;
    await sql`
      insert into translations (key_id, project_id, language, value, status)
      select k.id, k.project_id, l.code, case when l.code = 'en' then 'Hello {name}' when substr(k.key, 7)::int % 2 = 0 then 'Hallo' else 'Hallo {name}' end, 'draft'
      from translation_keys k cross join (values ('en'), ('de')) as l(code) where k.project_id = ${p.projectId}::uuid`;
    const dev = await member(t, p.accountId, 'developer');
    const first = await dev.get(`/portal/projects/${p.projectId}?lang=de&problems=de`);
    const next = /href="([^"]+)" rel="next"/.exec(first.text)?.[1]?.replaceAll('&amp;', '&');
    expect(next).toContain('problems=de');
    const second = await dev.get(next!);
    const shown = (html: string) => [...html.matchAll(/<span class="mono keyname">([^<]+)<\/span>/g)].map((m) => m[1]);
    expect(shown(first.text)).toHaveLength(50);
    expect([...shown(first.text), ...shown(second.text)]).toEqual(names.filter((_, i) => i % 2 === 0));
    expect(second.text).not.toContain('rel="next"');
  });
});

describe('quality settings in the portal', () => {
  it('an owner sets the source language and the checks that block approval; an approval they refuse is a message, nothing written', async () => {
    const p = await project(t);
    const id = await key(t, p, 'home.greeting', { en: ['Hello {name}!', 'approved'], de: ['Hallo!', 'draft'] });
    const owner = await member(t, p.accountId, 'owner');
    const page = await owner.get(`/portal/projects/${p.projectId}/languages`);
    expect(page.text).toContain('Checks that block approval');
    expect(page.text).toMatch(/<option value="en" selected="">en<\/option>/);

    const saved = await owner.follow(await owner.post(`/portal/projects/${p.projectId}/quality`, { source_language: 'en', quality_blocking: 'placeholders' }));
    expect(saved.status).toBe(200);
    expect(visible(saved.text)).toContain('Quality settings saved.');
    expect(saved.text).toMatch(/value="placeholders" checked=""/);
    expect((await json(await t.admin('GET', `/projects/${p.projectId}`))).quality_blocking).toEqual(['placeholders']);

    // An approval the blocking check refuses: the portal says why, the draft stays.
    const refused = await owner.post(`/portal/projects/${p.projectId}/keys/${id}/values/de`, { value: 'Hallo!', status: 'approved' }, { Accept: 'application/json' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('Missing placeholder {name}');
    expect((await values(t, p, 'de'))['home.greeting']).toMatchObject({ value: 'Hallo!', status: 'draft' });

    // A bad setting is a 422 at the form; a translator cannot change it.
    const bad = await owner.post(`/portal/projects/${p.projectId}/quality`, { source_language: 'xx', quality_blocking: 'placeholders' });
    expect(bad.status).toBe(422);
    expect(visible(bad.text)).toContain('xx is not a language of this project');
    const translator = await member(t, p.accountId, 'translator');
    expect((await translator.post(`/portal/projects/${p.projectId}/quality`, { quality_blocking: 'length' })).status).toBe(403);
    expect((await json(await t.admin('GET', `/projects/${p.projectId}`))).quality_blocking).toEqual(['placeholders']);
  });
});
