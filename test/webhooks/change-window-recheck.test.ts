// A project's translations.changed window is asked again once its dispatcher holds the project's
// lock: with replicas, another worker can send the window's event between this one's look and its
// lock, and the rows then in the outbox are a new window's, not yet due.
import { describe, expect, it } from 'vitest';
import { dispatchProjectChanges } from '../../core/webhooks/dispatch-outbox.ts';
import { useTestApp } from '../support/test-app.ts';

const t = useTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_DEBOUNCE_MS: '600000', WEBHOOKS_POLL_MS: '60000' } });

describe("a project's gathered changes", () => {
  it('are not sent before their window is over, whoever looked first', async () => {
    const p = await t.newProject('business');
    expect((await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: 'http://127.0.0.1:9/hook', events: ['translations.changed'] })).status).toBe(201);
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.title' })).status).toBe(201);
    const outbox = () => t.runtime.deps.sql<{ n: number }[]>`
      select count(*)::int as n from webhook_outbox where project_id = ${p.projectId} and webhook_type = 'translations.changed'`;
    expect((await outbox())[0]!.n).toBeGreaterThan(0);

    // What a replica that saw the project due a moment ago would now do: nothing, the window is new.
    expect(await dispatchProjectChanges(t.runtime.deps, p.projectId)).toBe(0);
    expect((await outbox())[0]!.n).toBeGreaterThan(0);
    const [deliveries] = await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where project_id = ${p.projectId}`;
    expect(deliveries!.n).toBe(0);

    // Once the window is over, the same call sends it, as one event.
    await t.runtime.deps.sql`update webhook_outbox set created_at = now() - interval '1 hour' where project_id = ${p.projectId}`;
    expect(await dispatchProjectChanges(t.runtime.deps, p.projectId)).toBeGreaterThan(0);
    const sent = await t.runtime.deps.sql<{ event_type: string }[]>`select event_type from webhook_deliveries where project_id = ${p.projectId}`;
    expect(sent.map((d) => d.event_type)).toEqual(['translations.changed']);
  });
});
