// A value's History and its revert through HTTP. What is current is what is stored (the value the
// API's GET answers), never an older text: an import records one event per file for the values it
// creates (shown as stored, with the import that wrote them) and one translation.written per
// existing value it changes, with the text it replaced, so that text is listed and revertable even
// when no recorded write of its own left it. A dry run, an unchanged re-import and a refused file
// record nothing. A revert names an event id: anything that is not a positive bigint is "not
// found", never a 5xx and never the database's words. And the portal's export gives XLIFF its source.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { hashPassword } from '../../core/users/password.ts';
import { createSession } from '../../core/users/sessions.ts';
import { PortalClient } from './support/portal-client.ts';
import { valueHistory } from '../../core/portal/activity.ts';

// Webhook outbox rows stay until the test has counted them.
const t = useTestApp({ env: { WEBHOOKS_DEBOUNCE_MS: '600000' } });
let p: TestProject;
let dev: PortalClient;
let translator: PortalClient;

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
  const [other] = await t.runtime.deps.sql<{ id: string }[]>`
    insert into users (email, password_hash) values ('translator@example.com', ${await hashPassword('not used here')}) returning id`;
  await t.runtime.deps.sql`insert into memberships (user_id, account_id, role) values (${other!.id}, ${p.accountId}, 'translator')`;
  const translatorSession = await createSession(t.runtime.deps, other!.id);
  translator = new PortalClient(t.app);
  translator.cookies.set('tms_session', translatorSession.token);
  translator.csrf = translatorSession.csrf;
});

const importJson = (language: string, values: Record<string, string>, status = 'draft', query = '') =>
  t.app.request(`/v1/import/${language}?format=json&status=${status}${query}`, {
    method: 'POST',
    headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/octet-stream' },
    body: typeof values === 'string' ? values : JSON.stringify(values),
  });

/** The history page's entries: text, whether marked current, and the revert form's event id. */
function entries(html: string) {
  const list = /<ol class="list">([^]*?)<\/ol>/.exec(html)![1]!;
  return [...list.matchAll(/<li>([^]*?)<\/li>/g)].map(([, li]) => ({
    text: (/<strong>([^]*?)<\/strong>/.exec(li!)?.[1] ?? '').replace(/<[^>]*>/g, '').replace(/^(?:&quot;|")|(?:&quot;|")$/g, ''),
    current: li!.includes('(current)'),
    fromImport: li!.includes('from an import'),
    revert: /name="event_id" value="(\d+)"/.exec(li!)?.[1],
    /** 'before': the revert writes the text that event replaced (an entry no write of its own left). */
    side: /name="side" value="(\w+)"/.exec(li!)?.[1],
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
    const reverted = await dev.follow(await dev.post(`/portal/projects/${p.projectId}/keys/${key.id}/values/de/revert`, { event_id: shown[1]!.revert! }));
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

  it('a PUT that changes nothing (a retry, a save of the same text) records nothing: no History line, no webhook', async () => {
    const key = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.again', group_name: 'home' })).json()) as { id: string };
    const url = `/v1/keys/${key.id}/translations/de`;
    const first = await t.call(p.apiKey, 'PUT', url, { value: 'Noch mal', status: 'review' });
    const before = await lastEventId();
    // Plain (batched), under If-Match and under If-None-Match: each answers as the first did.
    expect((await (await t.call(p.apiKey, 'PUT', url, { value: 'Noch mal', status: 'review' })).json()).version).toBe((await first.json()).version);
    expect((await t.call(p.apiKey, 'PUT', url, { value: 'Noch mal', status: 'review' }, { 'If-Match': first.headers.get('etag')! })).status).toBe(200);
    expect((await t.call(p.apiKey, 'PUT', url, { value: 'Noch mal', status: 'review' }, { 'If-None-Match': '"999999"' })).status).toBe(200);
    expect(await eventsSince(before)).toEqual([]);
    const outbox = await sql()<{ n: number }[]>`select count(*)::int as n from webhook_outbox o join domain_events e on e.id = o.event_id where e.id > ${before}`;
    expect(outbox[0]!.n).toBe(0);
    const shown = entries((await dev.get(`/portal/projects/${p.projectId}/keys/${key.id}/values/de/history`)).text);
    expect(shown.map((e) => e.text)).toEqual(['Noch mal']);
    // A change of status alone is a change.
    await t.call(p.apiKey, 'PUT', url, { value: 'Noch mal', status: 'draft' });
    expect(await eventsSince(before)).toEqual([`translation.written ${key.id}/de`]);
  });
});

const sql = () => t.runtime.deps.sql;
const lastEventId = async () => Number((await sql()<{ id: string | null }[]>`select max(id)::text as id from domain_events`)[0]!.id ?? 0);
/** The events recorded since `after`, in this project: type and entity. */
const eventsSince = async (after: number) =>
  (await sql()<{ type: string; entity_id: string }[]>`select type, entity_id from domain_events where project_id = ${p.projectId} and id > ${after} order by id`).map((e) => `${e.type} ${e.entity_id}`);
const keyIdOf = async (key: string) => (await sql()<{ id: string }[]>`select id from translation_keys where project_id = ${p.projectId} and key = ${key} and deleted_at is null`)[0]!.id;
const valueOf = async (keyId: string, language: string) => (await (await t.call(p.apiKey, 'GET', `/v1/keys/${keyId}/translations/${language}`)).json()) as { value: string; status: string };

describe('An import over reviewed values', () => {
  it('records one translation.written per changed value: History lists the old and the new text, and Revert brings the old back', async () => {
    // Reviewed through single writes (rev.a), and through an import that created them (rev.b, rev.c: no event of their own).
    const a = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'rev.a', group_name: 'rev' })).json()) as { id: string };
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${a.id}/translations/fr`, { value: 'Ancien A', status: 'review' })).status).toBe(200);
    expect((await importJson('fr', { 'rev.b': 'Ancien B', 'rev.c': 'Ancien C' }, 'review')).status).toBe(200);
    const ids = { a: a.id, b: await keyIdOf('rev.b'), c: await keyIdOf('rev.c') };
    const before = await lastEventId();

    const res = await importJson('fr', { 'rev.a': 'Nouveau A', 'rev.b': 'Nouveau B', 'rev.c': 'Ancien C', 'rev.d': 'Nouveau D' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ values_created: 1, values_updated: 3, values_unchanged: 0 });
    // Per changed value one event (rev.c: its status), in key id order; the created value only in the import's own.
    expect(await eventsSince(before)).toEqual([...[ids.a, ids.b, ids.c].sort().map((id) => `translation.written ${id}/fr`), 'translation.imported fr']);
    const [b] = await sql()<{ before: unknown; after: unknown }[]>`
      select before, after from domain_events where id > ${before} and entity_id = ${`${ids.b}/fr`}`;
    expect(b).toEqual({ before: { value: 'Ancien B', status: 'review' }, after: { value: 'Nouveau B', status: 'draft' } });

    const history = (id: string) => `/portal/projects/${p.projectId}/keys/${id}/values/fr/history`;
    const shown = {
      a: entries((await dev.get(history(ids.a))).text),
      b: entries((await dev.get(history(ids.b))).text),
      c: entries((await dev.get(history(ids.c))).text),
    };
    expect(shown.a.map((e) => [e.text, e.current, e.fromImport, e.revert !== undefined, e.side])).toEqual([
      ['Nouveau A', true, true, false, undefined],
      ['Ancien A', false, false, true, undefined],
    ]);
    // rev.b's old text was written by the import that created it: listed from the import's per-value event.
    expect(shown.b.map((e) => [e.text, e.current, e.fromImport, e.revert !== undefined, e.side])).toEqual([
      ['Nouveau B', true, true, false, undefined],
      ['Ancien B', false, false, true, 'before'],
    ]);
    expect(shown.c.map((e) => [e.text, e.current, e.revert !== undefined, e.side])).toEqual([
      ['Ancien C', true, false, undefined],
      ['Ancien C', false, true, 'before'],
    ]);
    const page = (await dev.get(history(ids.b))).text;
    expect(page).toContain('from an import (json)');
    expect(page).toMatch(/<span class="badge status-review">review<\/span>/);

    // Revert on the entry before the import's restores the old text and status, and it is current again.
    for (const [key, id, old] of [['a', ids.a, 'Ancien A'], ['b', ids.b, 'Ancien B']] as const) {
      const entry = shown[key][1]!;
      const reverted = await dev.follow(await dev.post(`/portal/projects/${p.projectId}/keys/${id}/values/fr/revert`, { event_id: entry.revert!, ...(entry.side ? { side: entry.side } : {}) }));
      expect(reverted.status, key).toBe(200);
      expect(await valueOf(id, 'fr'), key).toMatchObject({ value: old, status: 'review' });
      const now = entries(reverted.text);
      expect(now[0], key).toMatchObject({ text: old, current: true, revert: undefined });
      expect(now.filter((e) => e.current), key).toHaveLength(1);
      expect(now.map((e) => e.text), key).toContain('Nouveau ' + key.toUpperCase());
    }
  });

  it('a dry run and an unchanged re-import record nothing', async () => {
    expect((await importJson('fr', { 'same.a': 'Un', 'same.b': 'Deux' }, 'review')).status).toBe(200);
    const id = await keyIdOf('same.a');
    const before = await lastEventId();
    const dry = await importJson('fr', { 'same.a': 'Autre', 'same.b': 'Deux' }, 'approved', '&dry_run=true');
    expect(dry.status).toBe(200);
    expect(await dry.json()).toMatchObject({ dry_run: true, values_updated: 2 });
    const again = await importJson('fr', { 'same.a': 'Un', 'same.b': 'Deux' }, 'review');
    expect(await again.json()).toMatchObject({ values_updated: 0, values_unchanged: 2 });
    expect(await eventsSince(before)).toEqual([]);
    expect(await valueOf(id, 'fr')).toMatchObject({ value: 'Un', status: 'review' });
    expect(entries((await dev.get(`/portal/projects/${p.projectId}/keys/${id}/values/fr/history`)).text).map((e) => e.text)).toEqual(['Un']);
  });

  it('a refused import (an invalid entry, conflict=fail) records nothing and changes nothing', async () => {
    expect((await importJson('fr', { 'refused.a': 'Gardé' }, 'review')).status).toBe(200);
    const id = await keyIdOf('refused.a');
    const before = await lastEventId();
    const invalid = await importJson('fr', { 'refused.a': 'Changé', 'refused.b': 'x'.repeat(10_001) });
    expect(invalid.status).toBe(422);
    const conflicting = await importJson('fr', { 'refused.a': 'Changé' }, 'draft', '&conflict=fail');
    expect(conflicting.status).toBe(409);
    expect(await eventsSince(before)).toEqual([]);
    expect(await valueOf(id, 'fr')).toMatchObject({ value: 'Gardé', status: 'review' });
  });

  it('an approval an import replaced comes back from a translator as review (the revert rule holds)', async () => {
    expect((await importJson('fr', { 'appr.a': 'Approuvé' }, 'approved')).status).toBe(200);
    expect((await importJson('fr', { 'appr.a': 'Remplacé' }, 'draft')).status).toBe(200);
    const id = await keyIdOf('appr.a');
    const shown = entries((await translator.get(`/portal/projects/${p.projectId}/keys/${id}/values/fr/history`)).text);
    expect(shown.map((e) => [e.text, e.side])).toEqual([
      ['Remplacé', undefined],
      ['Approuvé', 'before'],
    ]);
    const reverted = await translator.follow(await translator.post(`/portal/projects/${p.projectId}/keys/${id}/values/fr/revert`, { event_id: shown[1]!.revert!, side: 'before' }));
    expect(reverted.status).toBe(200);
    expect(await valueOf(id, 'fr')).toMatchObject({ value: 'Approuvé', status: 'review' });
    // By someone who may approve, the approval itself.
    const again = entries(reverted.text).find((e) => e.text === 'Approuvé' && e.side === 'before')!;
    expect((await dev.post(`/portal/projects/${p.projectId}/keys/${id}/values/fr/revert`, { event_id: again.revert!, side: 'before' })).status).toBe(303);
    expect(await valueOf(id, 'fr')).toMatchObject({ value: 'Approuvé', status: 'approved' });
  });

  it('an approved value offers a translator no Revert (it would only be refused), and says who can', async () => {
    expect((await importJson('fr', { 'locked.a': 'Premier' }, 'review')).status).toBe(200);
    expect((await importJson('fr', { 'locked.a': 'Second' }, 'approved')).status).toBe(200);
    const id = await keyIdOf('locked.a');
    const history = `/portal/projects/${p.projectId}/keys/${id}/values/fr/history`;
    const asTranslator = await translator.get(history);
    expect(entries(asTranslator.text).map((e) => e.revert)).toEqual([undefined, undefined]);
    expect(asTranslator.text).toContain('only a reviewer or developer can revert it');
    const asDev = await dev.get(history);
    expect(entries(asDev.text).some((e) => e.revert !== undefined)).toBe(true);
    expect(asDev.text).not.toContain('only a reviewer or developer can revert it');
  });

  it("feeds the webhook outbox as a bulk status change does: one row per changed value, plus the import's", async () => {
    await sql()`insert into webhook_endpoints (project_id, url, events, secret) values (${p.projectId}, 'https://hooks.example.com/tms', '{translations.changed}', 'whsec_dGVzdA==')`;
    try {
      expect((await importJson('fr', { 'hook.a': 'Un', 'hook.b': 'Deux', 'hook.c': 'Trois' }, 'review')).status).toBe(200);
      const rows = async (after: number) =>
        (await sql()<{ type: string }[]>`
          select e.type from webhook_outbox o join domain_events e on e.id = o.event_id where o.project_id = ${p.projectId} and e.id > ${after} order by e.id`).map((r) => r.type);
      let before = await lastEventId();
      expect((await importJson('fr', { 'hook.a': 'Eins', 'hook.b': 'Zwei', 'hook.c': 'Trois' }, 'review')).status).toBe(200);
      expect(await rows(before)).toEqual(['translation.written', 'translation.written', 'translation.imported']);
      before = await lastEventId();
      const ids = [await keyIdOf('hook.a'), await keyIdOf('hook.b')];
      expect((await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: ids, languages: ['fr'], status: 'approved' })).status).toBe(200);
      expect(await rows(before)).toEqual(['translation.written', 'translation.written']);
    } finally {
      await sql()`delete from webhook_endpoints where project_id = ${p.projectId}`;
      await sql()`delete from webhook_outbox where project_id = ${p.projectId}`;
    }
  });
});

describe('History of a deleted value', () => {
  it('lists the text an import wrote and a delete removed, and Revert brings it back (approval included)', async () => {
    expect((await importJson('de', { 'gone.title': 'Willkommen zurück' }, 'approved')).status).toBe(200);
    const [key] = await t.runtime.deps.sql<{ id: string }[]>`select id from translation_keys where project_id = ${p.projectId} and key = 'gone.title' and deleted_at is null`;
    const url = `/v1/keys/${key!.id}/translations/de`;
    expect((await t.call(p.apiKey, 'DELETE', url)).status).toBe(204);

    const history = `/portal/projects/${p.projectId}/keys/${key!.id}/values/de/history`;
    const page = await dev.get(history);
    expect(page.status).toBe(200);
    const shown = entries(page.text);
    // The delete, current; then the text it removed, which no write of its own left (the import
    // recorded one event for the file), revertable from the delete's event.
    expect(shown.map(({ text, current, side }) => ({ text, current, side }))).toEqual([
      { text: 'deleted', current: true, side: undefined },
      { text: 'Willkommen zurück', current: false, side: 'before' },
    ]);
    expect(page.text).toContain('deleted');
    const version = /name="version" value="([^"]*)"/.exec(page.text)?.[1];
    const reverted = await dev.follow(await dev.post(`${history.replace('/history', '/revert')}`, { event_id: shown[1]!.revert!, side: 'before', ...(version ? { version } : {}) }));
    expect(reverted.status).toBe(200);
    const value = (await (await t.call(p.apiKey, 'GET', url)).json()) as { value: string; status: string };
    expect({ value: value.value, status: value.status }).toEqual({ value: 'Willkommen zurück', status: 'approved' });
    expect((await t.call(p.apiKey, 'DELETE', url)).status).toBe(204); // the later tests export this language
  });

  it('a text a recorded write left is not listed twice: the write offers it, the delete does not', async () => {
    const [key] = await t.runtime.deps.sql<{ id: string }[]>`
      insert into translation_keys (project_id, key, group_name) values (${p.projectId}, 'gone.twice', 'gone') returning id`;
    const url = `/v1/keys/${key!.id}/translations/de`;
    expect((await t.call(p.apiKey, 'PUT', url, { value: 'Erst', status: 'draft' })).status).toBeLessThan(300);
    expect((await t.call(p.apiKey, 'DELETE', url)).status).toBe(204);
    // Created again by an import, deleted again: the imported text is only in the second delete.
    expect((await importJson('de', { 'gone.twice': 'Wieder' })).status).toBe(200);
    expect((await t.call(p.apiKey, 'DELETE', url)).status).toBe(204);
    const shown = entries((await dev.get(`/portal/projects/${p.projectId}/keys/${key!.id}/values/de/history`)).text);
    expect(shown.map(({ text, side }) => ({ text, side }))).toEqual([
      { text: 'deleted', side: undefined },
      { text: 'Wieder', side: 'before' },
      { text: 'deleted', side: undefined },
      { text: 'Erst', side: undefined },
    ]);
  });

  it('refuses a revert to the after side of a delete (there is no text after it)', async () => {
    const [event] = await t.runtime.deps.sql<{ id: string; entity_id: string }[]>`
      select id::text, entity_id from domain_events where project_id = ${p.projectId} and type = 'translation.deleted' order by id limit 1`;
    const [keyId] = event!.entity_id.split('/');
    const res = await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/revert`, { event_id: event!.id });
    expect(res.status).toBe(404);
    expect(res.text).toContain('That version of the value was not found');
  });
});

describe('History across a language removal', () => {
  // Removing a language permanently deletes its values and records one language.removed event (no
  // event per value): the value's writes from before it are not its history any more.
  it('lists no write from before the latest removal: none is current, none offered for Revert, and a revert to one is refused', async () => {
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'it' })).status).toBe(201);
    const key = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'removal.title', group_name: 'removal' })).json()) as { id: string };
    const history = `/portal/projects/${p.projectId}/keys/${key.id}/values/it/history`;
    const revert = `/portal/projects/${p.projectId}/keys/${key.id}/values/it/revert`;
    await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/it`, { value: 'Titolo vecchio' });
    await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/it`, { value: 'Titolo' });
    const old = entries((await dev.get(history)).text).find((e) => e.text === 'Titolo vecchio')!;
    expect(old.revert).toBeDefined();

    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/it')).status).toBe(200);
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'it' })).status).toBe(201);
    // The value is created again by an import, with the text and status of the last write before the removal.
    expect((await importJson('it', { 'removal.title': 'Titolo' })).status).toBe(200);

    // The stored value was written by the import after the removal, not by the PUT before it.
    const h = await valueHistory(t.runtime.deps, p.projectId, key.id, 'it');
    expect(h.stored).toMatchObject({ value: 'Titolo' });
    expect(h.items.filter((i) => i.current)).toEqual([]);
    expect(h.items.map((i) => (i.after as { value?: string } | null)?.value)).not.toContain('Titolo vecchio');
    expect(h.unexplained?.source?.type).toBe('translation.imported');
    const shown = entries((await dev.get(history)).text);
    expect(shown).toEqual([{ text: 'Titolo', current: true, fromImport: true, revert: undefined, side: undefined }]);

    // A revert to a write from before the removal (its form kept from an old page) is refused, and writes nothing.
    const stored = await (await t.call(p.apiKey, 'GET', `/v1/keys/${key.id}/translations/it`)).json();
    const valueEvents = async () =>
      (await t.runtime.deps.sql<{ n: number }[]>`
        select count(*)::int as n from domain_events where project_id = ${p.projectId} and entity_id = ${`${key.id.toLowerCase()}/it`}`)[0]!.n;
    const eventsBefore = await valueEvents();
    const res = await dev.post(revert, { event_id: old.revert!, version: String(h.stored!.version) });
    expect(res.status).toBe(404);
    expect(res.text).toContain('That version of the value was not found');
    expect(await (await t.call(p.apiKey, 'GET', `/v1/keys/${key.id}/translations/it`)).json()).toEqual(stored);
    expect(await valueEvents()).toBe(eventsBefore);
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
