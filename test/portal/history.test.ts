// A value's History and its revert through HTTP. What is current is what is stored (the value the
// API's GET answers), never an older text: an import records one event per file, so a value it
// changed is shown as stored, with the import that wrote it, and every earlier text stays
// revertable. A revert names an event id: anything that is not a positive bigint is "not found",
// never a 5xx and never the database's words. And the portal's export gives XLIFF its source.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { hashPassword } from '../../core/users/password.ts';
import { createSession } from '../../core/users/sessions.ts';
import { PortalClient } from './support/portal-client.ts';

const t = useTestApp();
let p: TestProject;
let dev: PortalClient;

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['en', 'de', 'fr']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  const [user] = await t.runtime.deps.sql<{ id: string }[]>`
    insert into users (email, password_hash) values ('dev@example.com', ${await hashPassword('not used here')}) returning id`;
  await t.runtime.deps.sql`insert into memberships (user_id, account_id, role) values (${user!.id}, ${p.accountId}, 'developer')`;
  const session = await createSession(t.runtime.deps, user!.id);
  dev = new PortalClient(t.app);
  dev.cookies.set('tms_session', session.token);
  dev.csrf = session.csrf;
});

const importJson = (language: string, values: Record<string, string>, status = 'draft') =>
  t.app.request(`/v1/import/${language}?format=json&status=${status}`, {
    method: 'POST',
    headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/octet-stream' },
    body: JSON.stringify(values),
  });

/** The history page's entries: text, whether marked current, and the revert form's event id. */
function entries(html: string) {
  const list = /<ol class="list">([^]*?)<\/ol>/.exec(html)![1]!;
  return [...list.matchAll(/<li>([^]*?)<\/li>/g)].map(([, li]) => ({
    text: (/<strong>([^]*?)<\/strong>/.exec(li!)?.[1] ?? '').replace(/<[^>]*>/g, '').replace(/^(?:&quot;|")|(?:&quot;|")$/g, ''),
    current: li!.includes('(current)'),
    fromImport: li!.includes('from an import'),
    revert: /name="event_id" value="(\d+)"/.exec(li!)?.[1],
  }));
}

describe('History after an import', () => {
  it('shows the imported text as current (from an import), and the earlier texts with Revert, the newest write included', async () => {
    const key = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.title', group_name: 'home' })).json()) as { id: string };
    const history = `/portal/projects/${p.projectId}/keys/${key.id}/values/de/history`;
    await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'Erster Titel' });
    await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'Zweiter Titel' });
    let shown = entries((await dev.get(history)).text);
    expect(shown.map((e) => [e.text, e.current, e.revert !== undefined])).toEqual([
      ['Zweiter Titel', true, false],
      ['Erster Titel', false, true],
    ]);

    expect((await importJson('de', { 'home.title': 'Importierter Titel' })).status).toBe(200);
    shown = entries((await dev.get(history)).text);
    expect(shown.map((e) => [e.text, e.current, e.fromImport, e.revert !== undefined])).toEqual([
      ['Importierter Titel', true, true, false],
      ['Zweiter Titel', false, false, true],
      ['Erster Titel', false, false, true],
    ]);

    // Reverting to the text the import replaced writes it again, and it is current again.
    const reverted = await dev.post(`/portal/projects/${p.projectId}/keys/${key.id}/values/de/revert`, { event_id: shown[1]!.revert! });
    expect(reverted.status).toBe(200);
    expect(await (await t.call(p.apiKey, 'GET', `/v1/keys/${key.id}/translations/de`)).json()).toMatchObject({ value: 'Zweiter Titel', status: 'draft' });
    shown = entries(reverted.text);
    expect(shown[0]).toMatchObject({ text: 'Zweiter Titel', current: true, revert: undefined });
    expect(shown.filter((e) => e.current)).toHaveLength(1);
  });

  it('a value only an import ever wrote has a current entry and no revert', async () => {
    expect((await importJson('fr', { 'home.only': 'Seulement importé' })).status).toBe(200);
    const [key] = await t.runtime.deps.sql<{ id: string }[]>`select id from translation_keys where project_id = ${p.projectId} and key = 'home.only'`;
    const shown = entries((await dev.get(`/portal/projects/${p.projectId}/keys/${key!.id}/values/fr/history`)).text);
    expect(shown).toEqual([{ text: 'Seulement importé', current: true, fromImport: true, revert: undefined }]);
  });

  it('an import that left the text as the last write did changes nothing in the history', async () => {
    const key = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.same', group_name: 'home' })).json()) as { id: string };
    await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'Gleich' });
    expect((await importJson('de', { 'home.same': 'Gleich' })).status).toBe(200);
    const shown = entries((await dev.get(`/portal/projects/${p.projectId}/keys/${key.id}/values/de/history`)).text);
    expect(shown).toEqual([{ text: 'Gleich', current: true, fromImport: false, revert: undefined }]);
  });
});

describe('revert with a malformed event id', () => {
  it('answers 404 "That version of the value was not found" for anything that is not a positive bigint, never 5xx or the database', async () => {
    const key = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.revert', group_name: 'home' })).json()) as { id: string };
    await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'Wert' });
    const path = `/portal/projects/${p.projectId}/keys/${key.id}/values/de/revert`;
    for (const id of ['99999999999999999999', '9223372036854775808', '9223372036854775807', '1.5', 'Infinity', '-1', '0', '1e3', ' 1', '', 'abc', '0x10']) {
      const res = await dev.post(path, { event_id: id });
      expect(res.status, id).toBe(404);
      expect(res.text, id).toContain('That version of the value was not found');
      expect(res.text, id).not.toMatch(/invalid input syntax|out of range/i);
    }
    const json = await dev.post(path, { event_id: '99999999999999999999' }, { Accept: 'application/json' });
    expect([json.status, JSON.parse(json.text).detail]).toEqual([404, 'That version of the value was not found']);
    expect(await (await t.call(p.apiKey, 'GET', `/v1/keys/${key.id}/translations/de`)).json()).toMatchObject({ value: 'Wert' });
  });
});

describe('export from the portal', () => {
  it('xliff and xliff2 carry the project source language by default, or the one chosen', async () => {
    await importJson('en', { 'x.greeting': 'Hello' }, 'approved');
    await importJson('fr', { 'x.greeting': 'Bonjour' }, 'approved');
    await importJson('de', { 'x.greeting': 'Hallo' }, 'approved');
    for (const format of ['xliff', 'xliff2']) {
      const res = await dev.get(`/portal/projects/${p.projectId}/export?language=de&format=${format}&status=approved&source=`);
      expect(res.status, `${format}: ${res.text.slice(0, 300)}`).toBe(200);
      expect(res.text).toContain('Hello');
      expect(res.text).toContain('Hallo');
      const chosen = await dev.get(`/portal/projects/${p.projectId}/export?language=de&format=${format}&status=approved&source=fr`);
      expect(chosen.status).toBe(200);
      expect(chosen.text).toContain('Bonjour');
      expect(chosen.text).not.toContain('Hello');
    }
    // The form offers the choice, the project's by default.
    const files = (await dev.get(`/portal/projects/${p.projectId}/files`)).text;
    expect(files).toMatch(/<select name="source">\s*<option value="" selected="">The project(?:&#39;|')s \(en\)<\/option>/);
    // Without the field (an older form) the project's source language too; other formats ignore it.
    expect((await dev.get(`/portal/projects/${p.projectId}/export?language=de&format=xliff`)).status).toBe(200);
    expect(JSON.parse((await dev.get(`/portal/projects/${p.projectId}/export?language=de&format=json&source=fr`)).text)).toEqual({ 'x.greeting': 'Hallo' });
  });
});
