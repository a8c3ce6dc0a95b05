// Removing a language deletes its values: a translations.changed subscriber is told (migration 027),
// as for any other change of values, naming the language; its keys are not listed, so
// keys_truncated is true. A removal that deleted no value is language.removed only.
// Runs on embedded PGlite, and on real Postgres with DATABASE_URL.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { QUICK_WEBHOOKS_ENV, receiversClosedAfterEach, waitFor, jsonAnswer, registeredReceiver } from '../support/webhook-receiver.ts';

const t = useTestApp({ env: QUICK_WEBHOOKS_ENV });
const receivers = receiversClosedAfterEach();

const ok = jsonAnswer;

const hook = (project: TestProject, events: string[]) => registeredReceiver(t, project.projectId, events, receivers);

describe('translations.changed when a language is removed', () => {
  it('a removal that deleted values sends translations.changed naming the language, and language.removed as before', async () => {
    const p = await t.newProject('team');
    for (const code of ['de', 'fr']) await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code }), 201);
    await ok(await t.call(p.apiKey, 'POST', '/v1/import/de?format=json', JSON.stringify({ 'home.a': 'A', 'home.b': 'B' }), { 'Content-Type': 'application/octet-stream' }));
    const receiver = await hook(p, ['translations.changed', 'language.removed']);
    const removed = (await ok(await t.call(p.apiKey, 'DELETE', '/v1/languages/de'))) as { translations_deleted: number };
    expect(removed.translations_deleted).toBe(2);
    await waitFor(() => receiver.accepted().length >= 2, 10_000, 'two events');
    await new Promise((r) => setTimeout(r, 800));
    const events = receiver.accepted().map((r) => r.verified!);
    expect(events.map((e) => e.type).sort()).toEqual(['language.removed', 'translations.changed']);
    const changed = events.find((e) => e.type === 'translations.changed')!.data;
    expect(changed).toMatchObject({ changes: 1, counts: { 'language.removed': 1 }, keys: [], keys_truncated: true, languages: ['de'] });
    expect(events.find((e) => e.type === 'language.removed')!.data).toMatchObject({ language: 'de' });

    // fr had no value: its removal is language.removed only.
    receiver.received.splice(0);
    expect((await ok(await t.call(p.apiKey, 'DELETE', '/v1/languages/fr'))) as { translations_deleted: number }).toMatchObject({ translations_deleted: 0 });
    await waitFor(() => receiver.accepted().length >= 1, 10_000, 'language.removed');
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.accepted().map((r) => r.verified!.type)).toEqual(['language.removed']);
  });

  it('a translations.changed subscriber alone hears of the removal; a language.removed subscriber alone gets no translations.changed', async () => {
    const p = await t.newProject('team');
    await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' }), 201);
    await ok(await t.call(p.apiKey, 'POST', '/v1/import/de?format=json', JSON.stringify({ 'home.a': 'A' }), { 'Content-Type': 'application/octet-stream' }));
    const changes = await hook(p, ['translations.changed']);
    const removals = await hook(p, ['language.removed']);
    await ok(await t.call(p.apiKey, 'DELETE', '/v1/languages/de'));
    await waitFor(() => changes.accepted().length >= 1 && removals.accepted().length >= 1, 10_000, 'both');
    await new Promise((r) => setTimeout(r, 800));
    expect(changes.accepted().map((r) => r.verified!.type)).toEqual(['translations.changed']);
    expect(removals.accepted().map((r) => r.verified!.type)).toEqual(['language.removed']);
  });
});
