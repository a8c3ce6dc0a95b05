// What README "Webhooks" tells a receiver, held to: the signing key is the base64-decoded bytes after
// `whsec_`; a secret is rotated by a second endpoint on the same url (each message then comes once
// under each secret, with one webhook-id); changes made while an endpoint is off are not sent once
// it is on again.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { QUICK_WEBHOOKS_ENV, receiversClosedAfterEach, startWebhookReceiver, waitFor, jsonAnswer } from '../support/webhook-receiver.ts';

const t = useTestApp({ env: QUICK_WEBHOOKS_ENV });
const receivers = receiversClosedAfterEach();

const ok = jsonAnswer;

const register = async (p: TestProject, url: string) =>
  (await ok(await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url, events: ['language.added'] }), 201)) as { id: string; secret: string };

/** The README's recipe, by hand: v1, base64 HMAC-SHA256 of id.timestamp.body keyed with the decoded bytes. */
function signedWith(secret: string, headers: Record<string, unknown>, body: string): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const mac = createHmac('sha256', key).update(`${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.${body}`).digest('base64');
  return String(headers['webhook-signature']).split(' ').includes(`v1,${mac}`);
}

describe('README: signing key, rotation, turning an endpoint on again', () => {
  it('a second endpoint on the same url gets each message with the same webhook-id, signed with its own secret', async () => {
    const p = await t.newProject('team');
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const old = await register(p, receiver.url());
    const next = await register(p, receiver.url());
    // The receiver has moved to the new secret: what the old one signs is refused (and retried).
    receiver.secret = next.secret;
    await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' }), 201);
    await waitFor(() => receiver.received.some((r) => signedWith(old.secret, r.headers, r.body)) && receiver.accepted().length >= 1, 10_000, 'both deliveries');
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const r of receiver.received) expect([old.secret, next.secret].filter((secret) => signedWith(secret, r.headers, r.body))).toHaveLength(1);
    // Then the old one goes: the next message comes under the new secret only.
    expect((await t.admin('DELETE', `/projects/${p.projectId}/webhooks/${old.id}`)).status).toBe(204);
    await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'fr' }), 201);
    const fr = await waitFor(() => receiver.accepted().find((r) => r.verified!.data['language'] === 'fr'), 10_000, 'fr');
    expect(signedWith(next.secret, fr.headers, fr.body)).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.filter((r) => r.headers['webhook-id'] === fr.headers['webhook-id'] && signedWith(old.secret, r.headers, r.body))).toEqual([]);
  });

  it('what happened while an endpoint was off is not sent when it is turned on again', async () => {
    const p = await t.newProject('team');
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const { id, secret } = await register(p, receiver.url());
    receiver.secret = secret;
    await ok(await t.admin('PATCH', `/projects/${p.projectId}/webhooks/${id}`, { enabled: false }));
    await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' }), 201);
    await ok(await t.admin('PATCH', `/projects/${p.projectId}/webhooks/${id}`, { enabled: true }));
    await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'fr' }), 201);
    await waitFor(() => receiver.accepted().length >= 1, 10_000, 'fr');
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.accepted().map((r) => r.verified!.data['language'])).toEqual(['fr']);
  });
});
