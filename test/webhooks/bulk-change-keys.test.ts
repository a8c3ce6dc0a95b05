// What translations.changed names after a bulk write whose keys have no event of their own: the
// values an import creates (with their new keys), a group's delete, rename and restore. They once
// arrived as `keys: []`, `groups: []`, `keys_truncated: false`, as if no key had changed. Each now
// lists its keys (the first 1,000) in its event, and the dispatcher names them as it names a
// changed value's key, with keys_truncated when there were more (core/webhooks/listed-keys.ts).
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { QUICK_WEBHOOKS_ENV, receiversClosedAfterEach, waitFor, type WebhookReceiver, jsonAnswer, registeredReceiver } from '../support/webhook-receiver.ts';

const t = useTestApp({ env: QUICK_WEBHOOKS_ENV });
const receivers = receiversClosedAfterEach();

type Changed = { changes: number; counts: Record<string, number>; keys: { id: string; key: string; group: string }[]; keys_truncated: boolean; languages: string[]; groups: string[] };

const ok = jsonAnswer;

const hook = (project: TestProject) => registeredReceiver(t, project.projectId, ['translations.changed'], receivers);

const importJson = async (p: TestProject, language: string, file: Record<string, string>) =>
  ok(await t.call(p.apiKey, 'POST', `/v1/import/${language}?format=json`, JSON.stringify(file), { 'Content-Type': 'application/octet-stream' }));

/** The one translations.changed the receiver got (anything more would have followed by then). */
async function theEvent(receiver: WebhookReceiver): Promise<Changed> {
  await waitFor(() => receiver.accepted().length >= 1, 10_000, 'translations.changed');
  await new Promise((r) => setTimeout(r, 800));
  const events = receiver.accepted().map((r) => r.verified!);
  expect(events.map((e) => e.type)).toEqual(['translations.changed']);
  return events[0]!.data as unknown as Changed;
}

const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}.k${String(i).padStart(4, '0')}`);

describe('translations.changed names the keys of bulk writes', () => {
  it('an import that creates keys names them and their groups', async () => {
    const p = await t.newProject('team');
    await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' }), 201);
    const receiver = await hook(p);
    await importJson(p, 'de', { 'home.title': 'Willkommen', 'home.body': 'Text', 'menu.open': 'Öffnen' });
    const event = await theEvent(receiver);
    expect(event.counts).toEqual({ 'translation.imported': 1 });
    expect(event.keys.map((k) => [k.key, k.group])).toEqual([['home.body', 'home'], ['home.title', 'home'], ['menu.open', 'menu']]);
    expect(event.keys_truncated).toBe(false);
    expect(event.groups).toEqual(['home', 'menu']);
    expect(event.languages).toEqual(['de']);
  });

  it('an import that adds values to existing keys names those keys and their group', async () => {
    const p = await t.newProject('team');
    for (const code of ['de', 'fr']) await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code }), 201);
    await importJson(p, 'de', { 'home.a': 'A', 'home.b': 'B', 'home.c': 'C' });
    const receiver = await hook(p);
    await importJson(p, 'fr', { 'home.a': 'Af', 'home.b': 'Bf', 'home.c': 'Cf' });
    const event = await theEvent(receiver);
    expect(event.keys.map((k) => k.key)).toEqual(['home.a', 'home.b', 'home.c']);
    expect(event.groups).toEqual(['home']);
    expect(event.keys_truncated).toBe(false);
  });

  it('an import creating 1,200 keys names 1,000, says keys_truncated, and names every group', async () => {
    const p = await t.newProject('unlimited');
    await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' }), 201);
    const receiver = await hook(p);
    // 1,199 keys of group "a" and, last in the file, one of group "z": it may be left out of `keys`,
    // never out of `groups`.
    const file = Object.fromEntries([...names(1199, 'a'), 'z.last'].map((k, i) => [k, `Wert ${i}`]));
    expect(((await importJson(p, 'de', file)) as { keys_created: number }).keys_created).toBe(1200);
    const event = await theEvent(receiver);
    expect(event.changes).toBe(1);
    expect(event.keys).toHaveLength(1000);
    expect(event.keys_truncated).toBe(true);
    expect(event.groups).toEqual(['a', 'z']);
    // The listed ids are the first 1,000 written, so z.last may be listed anyway: the event itself
    // must carry every group, whatever the listing.
    const [stored] = await t.runtime.deps.sql<{ groups: string[] }[]>`
      select after -> 'groups' as groups from domain_events where project_id = ${p.projectId} and type = 'translation.imported' order by id desc limit 1`;
    expect(stored!.groups).toEqual(['a', 'z']);
  });

  it('a group delete names its keys; past 1,000 keys_truncated is true', async () => {
    const p = await t.newProject('unlimited');
    await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' }), 201);
    await importJson(p, 'de', Object.fromEntries([...names(1100, 'big'), ...names(3, 'small')].map((k) => [k, k])));
    const receiver = await hook(p);
    expect((await t.call(p.apiKey, 'DELETE', '/v1/groups/small')).status).toBe(204);
    const small = await theEvent(receiver);
    expect(small.counts).toEqual({ 'group.deleted': 1 });
    expect(small.keys.map((k) => [k.key, k.group])).toEqual(names(3, 'small').map((k) => [k, 'small']));
    expect(small.keys_truncated).toBe(false);
    expect(small.groups).toEqual(['small']);

    receiver.received.splice(0);
    expect((await t.call(p.apiKey, 'DELETE', '/v1/groups/big')).status).toBe(204);
    const big = await theEvent(receiver);
    expect(big.keys).toHaveLength(1000);
    expect(big.keys.every((k) => k.group === 'big')).toBe(true);
    expect(big.keys_truncated).toBe(true);
    expect(big.groups).toEqual(['big']);
  });

  it("a group's rename and restore name its keys", async () => {
    const p = await t.newProject('team');
    await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' }), 201);
    await importJson(p, 'de', { 'old.a': 'A', 'old.b': 'B' });
    const receiver = await hook(p);
    await ok(await t.call(p.apiKey, 'PATCH', '/v1/groups/old', { new_name: 'new' }));
    const renamed = await theEvent(receiver);
    expect(renamed.keys.map((k) => [k.key, k.group])).toEqual([['old.a', 'new'], ['old.b', 'new']]);
    expect(renamed.keys_truncated).toBe(false);
    expect(renamed.groups).toEqual(['new', 'old']);

    expect((await t.call(p.apiKey, 'DELETE', '/v1/groups/new')).status).toBe(204);
    await waitFor(() => receiver.accepted().length >= 2, 10_000, 'the delete');
    receiver.received.splice(0);
    await ok(await t.admin('POST', `/projects/${p.projectId}/groups/new/restore`));
    const restored = await theEvent(receiver);
    expect(restored.counts).toEqual({ 'group.restored': 1 });
    expect(restored.keys.map((k) => k.key)).toEqual(['old.a', 'old.b']);
    expect(restored.keys_truncated).toBe(false);
  });

  it('a bulk event recorded without its keys (before this fix) says keys_truncated', async () => {
    const p = await t.newProject('team');
    await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' }), 201);
    const receiver = await hook(p);
    // An import's event as recorded until 2026-11-30, still in the outbox at the upgrade: a count, no key_ids.
    await t.runtime.deps.sql`
      insert into domain_events (type, project_id, actor_type, actor_id, entity_type, entity_id, after)
      values ('translation.imported', ${p.projectId}, 'admin', null, 'language', 'de', ${JSON.stringify({ format: 'json', keys_created: 2, values_created: 2 })}::text::jsonb)`;
    const event = await theEvent(receiver);
    expect(event.keys).toEqual([]);
    expect(event.keys_truncated).toBe(true);
  });
});
