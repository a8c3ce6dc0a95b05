// Several webhook workers on one database, as replicas of `npm start` would run: every message is
// delivered, and none twice, since a delivery is claimed with FOR UPDATE SKIP LOCKED and a lease
// (the contention itself is only real on Postgres: run with DATABASE_URL).
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresWebhookWorker, type PostgresWebhookWorker } from '../../core/adapters/webhook-worker-postgres.ts';
import { useTestApp } from '../support/test-app.ts';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '../support/webhook-receiver.ts';

const t = useTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_DEBOUNCE_MS: '0', WEBHOOKS_POLL_MS: '20' } });
const workers: PostgresWebhookWorker[] = [];
let receiver: WebhookReceiver | undefined;

afterAll(async () => {
  for (const w of workers) await w.drain();
  await receiver?.close();
});

describe('webhook workers side by side', () => {
  it('deliver every message exactly once between them while nothing fails', async () => {
    // Two more workers beside the process's own, each with its own owner id.
    for (let i = 0; i < 2; i++) workers.push(createPostgresWebhookWorker({ deps: t.runtime.deps, pollMs: 20, workerId: `replica-${i}` }));
    const p = await t.newProject('business');
    receiver = await startWebhookReceiver();
    const created = (await (await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: receiver.url(), events: ['language.added', 'language.removed'] })).json()) as { secret: string };
    receiver.secret = created.secret;
    const codes = ['de', 'fr', 'it', 'es', 'nl', 'pt', 'pl', 'sv', 'da', 'fi'];
    await Promise.all(codes.map(async (code) => expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201)));
    await Promise.all(codes.map(async (code) => expect((await t.call(p.apiKey, 'DELETE', `/v1/languages/${code}`)).status).toBe(200)));
    await waitFor(() => receiver!.accepted().length >= 20, 20_000, '20 deliveries');
    await new Promise((r) => setTimeout(r, 300));
    const ids = receiver.accepted().map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(20);
    expect(receiver.received).toHaveLength(20);
    const seen = receiver.accepted().map((r) => `${r.verified!.type}:${r.verified!.data.language}`).sort();
    expect(seen).toEqual([...codes.map((c) => `language.added:${c}`), ...codes.map((c) => `language.removed:${c}`)].sort());
  });
});
