// A translations.changed window bigger than the dispatcher's page of 200 outbox rows is still one
// event (it was split into events of 200 changes, and keys_truncated could never be true).
import { afterEach, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { waitFor, type WebhookReceiver, jsonAnswer, registeredReceiver } from '../support/webhook-receiver.ts';

const t = useTestApp({
  env: {
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOKS_RETRY_BASE_MS: '10',
    WEBHOOKS_DEBOUNCE_MS: '300',
    WEBHOOKS_POLL_MS: '50',
    WEBHOOKS_TIMEOUT_MS: '1000',
    AUTO_REBUILD_DEBOUNCE_MS: '600000',
  },
});

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

const ok = jsonAnswer;

const hook = (project: TestProject, events: string[]) => registeredReceiver(t, project.projectId, events, receivers);

describe('translations.changed gathers one window into one event', () => {
  it('a bulk delete of 250 keys arrives as one translations.changed naming all 250', async () => {
    const p = await t.newProject('team');
    await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' }), 201);
    const file = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`bulk.k${String(i).padStart(3, '0')}`, `Wert ${i}`]));
    const imported = (await ok(await t.call(p.apiKey, 'POST', '/v1/import/de?format=json', file))) as { keys_created: number };
    expect(imported.keys_created).toBe(250);
    // Registered after the keys exist: only the bulk delete below is announced.
    const receiver = await hook(p, ['translations.changed']);
    const deleted = (await ok(await t.call(p.apiKey, 'POST', '/v1/keys/bulk-delete', { filter: { group: 'bulk' } }))) as { deleted: number };
    expect(deleted.deleted).toBe(250);
    await waitFor(() => receiver.accepted().length >= 1, 5_000, 'translations.changed');
    await new Promise((r) => setTimeout(r, 1_000)); // anything more would have followed by now
    const events = receiver.accepted().map((r) => r.verified!.data as { changes: number; keys: unknown[]; keys_truncated: boolean });
    // README: gathered per project for WEBHOOKS_DEBOUNCE_MS after the first change, up to 1,000 keys.
    expect(events.map((e) => e.changes)).toEqual([250]);
    expect(events[0]!.keys).toHaveLength(250);
    expect(events[0]!.keys_truncated).toBe(false);
  });
});
