// POST /v1/translate/{language} with only_missing: false replaces draft and review values. Like an
// import's overwrite (core/files/import-file.ts), it records one translation.written per existing
// value whose text or status it changed, with the text it replaced, so History lists that text and
// can revert to it; values it creates are told by its one language-wide event, as an import's are.
// Webhooks still gather the run into one translations.changed. Runs on embedded PGlite, and on real
// Postgres with DATABASE_URL.
import { describe, expect, it } from 'vitest';
import type { TestProject } from '../support/test-app.ts';
import { withDeeplTestApp, type StartedApp } from '../support/deepl-test-app.ts';
import { QUICK_WEBHOOKS_ENV, receiversClosedAfterEach, startWebhookReceiver, waitFor } from '../support/webhook-receiver.ts';
import { valueAfterEvent, valueHistory } from '../../core/portal/activity.ts';

let t: StartedApp;
withDeeplTestApp((app) => {
  t = app;
}, QUICK_WEBHOOKS_ENV);
const receivers = receiversClosedAfterEach();

async function json(res: Response, status = 200) {
  if (res.status !== status) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}
async function project(): Promise<TestProject> {
  const p = await t.newProject('team');
  for (const code of ['en', 'de']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }), 201);
  return p;
}
/** A key with its English text approved; returns its id. */
async function key(p: TestProject, name: string, english: string): Promise<string> {
  const k = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: name }), 201)) as { id: string };
  await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/en`, { value: english, status: 'approved' }));
  return k.id;
}
const importJson = (p: TestProject, language: string, values: Record<string, string>, status = 'draft') =>
  t.app.request(`/v1/import/${language}?format=json&status=${status}`, {
    method: 'POST',
    headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/octet-stream' },
    body: JSON.stringify(values),
  });
const eventsOf = (p: TestProject, after: number) =>
  t.runtime.deps.sql<{ id: string; type: string; entity_id: string; before: unknown; after: unknown }[]>`
    select id::text, type, entity_id, before, after from domain_events where project_id = ${p.projectId} and id > ${after} order by id`;
const lastEventId = async () => Number((await t.runtime.deps.sql<{ id: string | null }[]>`select max(id)::text as id from domain_events`)[0]!.id ?? 0);

describe('Translate missing with only_missing: false, in History', () => {
  it('keeps the text it replaced (an imported text) listed and revertable, with the run it came from', async () => {
    const p = await project();
    const id = await key(p, 'home.save', 'Save the file');
    // The German text arrives by an import that creates it: no event of the value's own.
    expect((await importJson(p, 'de', { 'home.save': 'Datei sichern (Übersetzerin)' })).status).toBe(200);
    const run = (await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', { only_missing: false }))) as { translated: number };
    expect(run.translated).toBe(1);
    const now = (await json(await t.call(p.apiKey, 'GET', `/v1/keys/${id}/translations/de`))) as { value: string; status: string };
    expect(now.value).not.toBe('Datei sichern (Übersetzerin)');

    const h = await valueHistory(t.runtime.deps, p.projectId, id, 'de');
    // The machine's write is the value's own newest event: current, from the language-wide run.
    expect(h.unexplained).toBeNull();
    expect(h.items).toHaveLength(1);
    const [written] = h.items;
    expect(written).toMatchObject({ type: 'translation.written', current: true, after: { value: now.value, status: 'draft' } });
    expect(written!.via?.type).toBe('translation.machine_translated');
    // The translator's text is listed (no older event of the value left it) and revertable.
    expect(written!.earlier).toEqual({ value: 'Datei sichern (Übersetzerin)', status: 'draft' });
    expect(await valueAfterEvent(t.runtime.deps, p.projectId, String(written!.id), 'before')).toEqual({
      keyId: id,
      language: 'de',
      value: 'Datei sichern (Übersetzerin)',
      status: 'draft',
    });
  });

  it('records one translation.written per value it changed, with the text and status it replaced, none for values it created or left as they were', async () => {
    const p = await project();
    const replaced = await key(p, 'a.replaced', 'Open the door');
    const reviewed = await key(p, 'b.reviewed', 'Close the window');
    const created = await key(p, 'c.created', 'Turn on the light');
    const approved = await key(p, 'd.approved', 'Lock the car');
    expect((await importJson(p, 'de', { 'a.replaced': 'Tür öffnen' })).status).toBe(200);
    expect((await importJson(p, 'de', { 'b.reviewed': 'Fenster schließen' }, 'review')).status).toBe(200);
    expect((await importJson(p, 'de', { 'd.approved': 'Auto abschließen' }, 'approved')).status).toBe(200);
    let before = await lastEventId();
    const run = (await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', { only_missing: false }))) as { translated: number };
    expect(run.translated).toBe(3);
    const events = await eventsOf(p, before);
    // Per-value writes first (in key id order), then the run's own event, as an import records them.
    expect(events.map((e) => e.type)).toEqual(['translation.written', 'translation.written', 'translation.machine_translated']);
    expect(events.slice(0, 2).map((e) => e.entity_id)).toEqual([`${replaced}/de`, `${reviewed}/de`].sort());
    const byValue = new Map(events.filter((e) => e.type === 'translation.written').map((e) => [e.entity_id, e]));
    expect(byValue.get(`${replaced}/de`)).toMatchObject({ before: { value: 'Tür öffnen', status: 'draft' }, after: { status: 'draft' } });
    expect(byValue.get(`${reviewed}/de`)).toMatchObject({ before: { value: 'Fenster schließen', status: 'review' }, after: { status: 'draft' } });
    // Created by the run: told by its language-wide event only; approved: never touched.
    expect(byValue.has(`${created}/de`)).toBe(false);
    expect(byValue.has(`${approved}/de`)).toBe(false);
    for (const e of byValue.values()) {
      const [keyId] = e.entity_id.split('/');
      const stored = (await json(await t.call(p.apiKey, 'GET', `/v1/keys/${keyId}/translations/de`))) as { value: string };
      expect(e.after).toEqual({ value: stored.value, status: 'draft' });
    }

    // Run again: the same texts and status are written over themselves, which changes nothing a
    // History entry would show (and costs nothing): no per-value event.
    before = await lastEventId();
    await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', { only_missing: false }));
    expect((await eventsOf(p, before)).map((e) => e.type)).toEqual(['translation.machine_translated']);
  });

  it('a run that replaces many values sends one translations.changed, naming them, not one per value', async () => {
    const p = await project();
    const names = Array.from({ length: 12 }, (_, i) => `bulk.k${String(i).padStart(2, '0')}`);
    for (const [i, name] of names.entries()) await key(p, name, `Sentence number ${i}`);
    expect((await importJson(p, 'de', Object.fromEntries(names.map((n, i) => [n, `Satz ${i}`])))).status).toBe(200);
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    receiver.secret = ((await json(await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: receiver.url(), events: ['translations.changed'] }), 201)) as { secret: string }).secret;

    expect(((await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', { only_missing: false }))) as { translated: number }).translated).toBe(12);
    const [event] = await waitFor(() => receiver.accepted().length >= 1 && receiver.accepted(), 5_000, 'translations.changed');
    await new Promise((r) => setTimeout(r, 800)); // past another debounce window: nothing else follows
    expect(receiver.accepted()).toHaveLength(1);
    expect(event!.verified).toMatchObject({
      type: 'translations.changed',
      data: { project_id: p.projectId, languages: ['de'], counts: { 'translation.written': 12, 'translation.machine_translated': 1 } },
    });
    expect((event!.verified!.data['keys'] as { key: string }[]).map((k) => k.key)).toEqual(names);
  });
});
