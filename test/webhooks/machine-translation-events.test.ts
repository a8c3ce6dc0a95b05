// A machine translation (POST /v1/translate/{language}) is announced as translations.changed naming
// its language. Its event names the language as its entity, which the dispatcher once took for a key
// id: the uuid cast failed every dispatch, so no webhook of any project was delivered again.
// Runs on embedded PGlite, and on real Postgres with DATABASE_URL.
import { describe, expect, it } from 'vitest';
import type { TestProject } from '../support/test-app.ts';
import { withDeeplTestApp, type StartedApp } from '../support/deepl-test-app.ts';
import { QUICK_WEBHOOKS_ENV, receiversClosedAfterEach, waitFor, jsonAnswer, registeredReceiver } from '../support/webhook-receiver.ts';

let t: StartedApp;
withDeeplTestApp((app) => {
  t = app;
}, QUICK_WEBHOOKS_ENV);
const receivers = receiversClosedAfterEach();

const ok = jsonAnswer;

const hook = (project: TestProject, events: string[]) => registeredReceiver(t, project.projectId, events, receivers);

/** A team project with en and de and one key whose English text is approved (de missing). */
async function projectWithMissingGerman(): Promise<TestProject> {
  const p = await t.newProject('team');
  for (const code of ['en', 'de']) await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code }), 201);
  const key = (await ok(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.title', group_name: 'home' }), 201)) as { id: string };
  await ok(await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/en`, { value: 'Welcome', status: 'approved' }));
  return p;
}

describe('translations.changed after a machine translation (POST /v1/translate/{language})', () => {
  it('a machine translation sends translations.changed naming its language', async () => {
    const p = await projectWithMissingGerman();
    const receiver = await hook(p, ['translations.changed']);
    const body = (await ok(await t.call(p.apiKey, 'POST', '/v1/translate/de', {}))) as { translated: number };
    expect(body.translated).toBe(1);
    const [event] = await waitFor(() => receiver.accepted().length >= 1 && receiver.accepted(), 5_000, 'translations.changed');
    expect(event!.verified).toMatchObject({ type: 'translations.changed', data: { project_id: p.projectId, languages: ['de'] } });
  });

  it('names the keys whose values it created, and their groups (they have no event of their own)', async () => {
    const p = await projectWithMissingGerman();
    const receiver = await hook(p, ['translations.changed']);
    expect(((await ok(await t.call(p.apiKey, 'POST', '/v1/translate/de', {}))) as { translated: number }).translated).toBe(1);
    await waitFor(() => receiver.accepted().length >= 1, 5_000, 'translations.changed');
    await new Promise((r) => setTimeout(r, 600)); // anything more would have followed by now
    const events = receiver.accepted().map((r) => r.verified!);
    expect(events).toHaveLength(1);
    // It arrived as keys: [], groups: [], keys_truncated: false, as if no key had changed.
    expect(events[0]!.data).toMatchObject({
      counts: { 'translation.machine_translated': 1 },
      keys: [{ key: 'home.title', group: 'home' }],
      keys_truncated: false,
      groups: ['home'],
      languages: ['de'],
    });
  });

  it("after one project's machine translation, every other project's webhooks are still delivered", async () => {
    // Another project, unrelated, subscribed to language.added only.
    const other = await t.newProject('team');
    const otherReceiver = await hook(other, ['language.added']);
    // A project subscribed to translations.changed runs a machine translation.
    const p = await projectWithMissingGerman();
    await hook(p, ['translations.changed']);
    await ok(await t.call(p.apiKey, 'POST', '/v1/translate/de', {}));
    await new Promise((r) => setTimeout(r, 600)); // past the debounce: its outbox row is due
    // The worker's loop once threw in dispatchOutbox here (invalid input syntax for type uuid: "de"),
    // before it claimed any delivery, on every poll from then on.
    await ok(await t.call(other.apiKey, 'POST', '/v1/languages', { code: 'fr' }), 201);
    const [added] = await waitFor(() => otherReceiver.accepted().length >= 1 && otherReceiver.accepted(), 5_000, "the other project's language.added");
    expect(added!.verified).toMatchObject({ type: 'language.added', data: { project_id: other.projectId, language: 'fr' } });
  });
});

