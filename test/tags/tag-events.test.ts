// Tags change nothing served (docs/decisions.md, "Tags on keys"): a change of tags alone is a
// key.tagged, which queues no translations.changed webhook (migration 033) and no auto-rebuild
// (changesContent). Found by review: they were key.updated events, which did both.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { QUICK_WEBHOOKS_ENV, receiversClosedAfterEach, jsonAnswer as ok, registeredReceiver } from '../support/webhook-receiver.ts';
import { createAutoRebuilder } from '../../core/cache/auto-rebuild.ts';

const t = useTestApp({ env: QUICK_WEBHOOKS_ENV });
const receivers = receiversClosedAfterEach();

describe('a tags-only change', () => {
  it('queues no translations.changed webhook (bulk-tags, PATCH of tags, an import that only tags)', async () => {
    const p = await t.newProject('team');
    await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'en' }), 201);
    const key = (await ok(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'cart.checkout', group_name: 'cart' }), 201)) as { id: string };
    const file = JSON.stringify({ 'cart.checkout': 'Checkout' });
    await ok(await t.call(p.apiKey, 'POST', '/v1/import/en', file), 200);
    const changes = await registeredReceiver(t, p.projectId, ['translations.changed'], receivers);
    const [row] = await t.runtime.deps.sql<{ last: string }[]>`select max(id)::text as last from domain_events where project_id = ${p.projectId}`;
    const last = row!.last;
    await ok(await t.call(p.apiKey, 'POST', '/v1/keys/bulk-tags', { key_ids: [key.id], add: ['mobile'] }), 200);
    await ok(await t.call(p.apiKey, 'PATCH', `/v1/keys/${key.id}`, { tags: ['mobile', 'web'] }), 200);
    // The same file again, with a tag: no value changes, only the key's tags.
    const tagged = (await ok(await t.call(p.apiKey, 'POST', '/v1/import/en?tag=release', file), 200)) as { keys_tagged: number; values_unchanged: number };
    expect(tagged).toMatchObject({ keys_tagged: 1, values_unchanged: 1 });
    await new Promise((r) => setTimeout(r, 800)); // past QUICK_WEBHOOKS_ENV's debounce
    const recorded = await t.runtime.deps.sql<{ type: string }[]>`
      select type from domain_events where project_id = ${p.projectId} and id > ${last} order by id`;
    const [queued] = await t.runtime.deps.sql<{ n: number }[]>`
      select count(*)::int as n from webhook_outbox o where o.project_id = ${p.projectId} and o.event_id > ${last}`;
    expect({ received: changes.received.length, queued: queued!.n }).toEqual({ received: 0, queued: 0 });
    // Tags only: no translation.imported for the import that only tagged.
    expect(recorded.map((e) => e.type)).toEqual(['key.tagged', 'key.tagged', 'key.tagged']);
  });

  it('queues no auto-rebuild (the events it records are fed to the auto-rebuilder)', async () => {
    const p = await t.newProject('team');
    const key = (await ok(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'a.b' }), 201)) as { id: string };
    await ok(await t.call(p.apiKey, 'POST', '/v1/keys/bulk-tags', { key_ids: [key.id], add: ['mobile'] }), 200);
    const events = await t.runtime.deps.sql<{ type: string; before: unknown; after: unknown }[]>`
      select type, before, after from domain_events where project_id = ${p.projectId} and type like 'key.%' and type <> 'key.created'`;
    expect(events).toHaveLength(1);
    const requested: string[] = [];
    const rebuilder = createAutoRebuilder({
      debounceMs: 0,
      enabled: async () => true,
      request: async (id) => void requested.push(id),
      hold: async () => 0,
      log: { error() {}, info() {}, warn() {}, debug() {} } as never,
    });
    expect(events.map((e) => e.type)).toEqual(['key.tagged']);
    await rebuilder.subscriber(events.map((e) => ({ ...e, projectId: p.projectId, actor: { type: 'api_key', id: null } as never, entity: { type: 'key' as const, id: key.id }, id: 1 })) as never);
    expect(requested).toEqual([]);
  });
});
