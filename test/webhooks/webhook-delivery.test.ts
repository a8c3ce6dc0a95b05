// Webhooks end to end through the API and the process's own worker, received by a real HTTP server
// that verifies every signature with the reference `standardwebhooks` package: each event's payload,
// an outage (500s, then the server down) and recovery with nothing lost, redirects not followed, a
// hanging endpoint that never slows the API, replay, and the secret never in a log.
// Runs on embedded PGlite, and on real Postgres with DATABASE_URL.
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../core/log.ts';
import { buildLanguagePath } from '../../core/cache/build-urls.ts';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '../support/webhook-receiver.ts';

const log = createMemoryLogger();
const DEBOUNCE_MS = 2000;
const t = useTestApp({
  log,
  env: {
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOKS_RETRY_BASE_MS: '10',
    // Wide enough that the burst test's five writes fall in one window on a loaded CI machine (at
    // 300 ms they once did not); only that test waits on it.
    WEBHOOKS_DEBOUNCE_MS: String(DEBOUNCE_MS),
    WEBHOOKS_POLL_MS: '50',
    WEBHOOKS_TIMEOUT_MS: '1000',
    AUTO_REBUILD_DEBOUNCE_MS: '600000',
  },
});

const receivers: WebhookReceiver[] = [];
const secrets: string[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

type Delivery = { id: string; message_id: string; status: string; attempts: number; last_status_code: number | null; last_error: string | null; next_attempt_at: string | null; replay_of: string | null; payload: { type: string; data: Record<string, unknown> } };

async function hooked(events: string[]): Promise<{ project: TestProject; receiver: WebhookReceiver; webhookId: string }> {
  const project = await t.newProject('team');
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const res = await t.admin('POST', `/projects/${project.projectId}/webhooks`, { url: receiver.url(), events, description: 'test receiver' });
  expect(res.status).toBe(201);
  const created = (await res.json()) as { id: string; secret: string };
  expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  receiver.secret = created.secret;
  secrets.push(created.secret);
  return { project, receiver, webhookId: created.id };
}

async function deliveries(project: TestProject, webhookId: string): Promise<Delivery[]> {
  const res = await t.admin('GET', `/projects/${project.projectId}/webhooks/${webhookId}/deliveries`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { deliveries: Delivery[] }).deliveries;
}

const addLanguage = async (p: TestProject, code: string) => expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);

describe('webhook delivery', () => {
  it('language.added and language.removed arrive signed, verifiable with standardwebhooks', async () => {
    const { project, receiver, webhookId } = await hooked(['language.added', 'language.removed']);
    await addLanguage(project, 'de');
    const [added] = await waitFor(() => receiver.accepted().length >= 1 && receiver.accepted(), 10_000, 'language.added');
    expect(added!.verified).toMatchObject({ type: 'language.added', data: { project_id: project.projectId, language: 'de', actor: { type: 'api_key', id: project.apiKeyId } } });
    expect(added!.headers['webhook-id']).toMatch(/^msg_/);
    expect(added!.headers['webhook-signature']).toMatch(/^v1,/);
    expect(added!.headers['content-type']).toBe('application/json');
    expect(Number(added!.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    // A tampered body does not verify: the signature covers it.
    expect(receiver.received.every((r) => r.verified)).toBe(true);

    expect((await t.call(project.apiKey, 'DELETE', '/v1/languages/de')).status).toBe(200);
    const removed = await waitFor(() => receiver.accepted().find((r) => r.verified?.type === 'language.removed'), 10_000, 'language.removed');
    expect(removed.verified!.data).toMatchObject({ language: 'de' });

    const log = await waitFor(async () => {
      const all = await deliveries(project, webhookId);
      return all.length === 2 && all.every((d) => d.status === 'succeeded') && all;
    });
    expect(log[0]).toMatchObject({ attempts: 1, last_status_code: 204, last_error: null, next_attempt_at: null, replay_of: null });
    expect(log.map((d) => d.payload.type)).toEqual(['language.removed', 'language.added']);
  });

  it('an endpoint receives only the events it subscribed to', async () => {
    const { project, receiver } = await hooked(['language.removed']);
    await addLanguage(project, 'fr');
    expect((await t.call(project.apiKey, 'DELETE', '/v1/languages/fr')).status).toBe(200);
    await waitFor(() => receiver.accepted().length >= 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.accepted().map((r) => r.verified!.type)).toEqual(['language.removed']);
  });

  it('translations.changed gathers a burst of writes into one event: keys, languages, groups, who', async () => {
    const { project, receiver } = await hooked(['translations.changed']);
    await addLanguage(project, 'de');
    await addLanguage(project, 'fr');
    const key = (await (await t.call(project.apiKey, 'POST', '/v1/keys', { key: 'home.title', group_name: 'home' })).json()) as { id: string };
    const other = (await (await t.call(project.apiKey, 'POST', '/v1/keys', { key: 'cart.total', group_name: 'cart' })).json()) as { id: string };
    for (const [id, lang, value] of [[key.id, 'de', 'Start'], [key.id, 'fr', 'Accueil'], [other.id, 'de', 'Summe']] as const) {
      expect((await t.call(project.apiKey, 'PUT', `/v1/keys/${id}/translations/${lang}`, { value })).status).toBe(200);
    }
    const [event] = await waitFor(() => receiver.accepted().length >= 1 && receiver.accepted());
    // Nothing more follows: the burst was one event. A write that missed the window would open a
    // second one, sent a full window after it.
    await new Promise((r) => setTimeout(r, DEBOUNCE_MS + 300));
    expect(receiver.accepted()).toHaveLength(1);
    const data = event!.verified!.data;
    expect(event!.verified!.type).toBe('translations.changed');
    expect(data).toMatchObject({
      project_id: project.projectId,
      changes: 5,
      counts: { 'key.created': 2, 'translation.written': 3 },
      languages: ['de', 'fr'],
      groups: ['cart', 'home'],
      actors: [{ type: 'api_key', id: project.apiKeyId }],
      keys_truncated: false,
    });
    expect(data.keys).toEqual([
      { id: other.id, key: 'cart.total', group: 'cart' },
      { id: key.id, key: 'home.title', group: 'home' },
    ]);
  });

  it('cache.rebuilt names the build, its languages, their immutable URLs and ETags', async () => {
    const { project, receiver } = await hooked(['cache.rebuilt']);
    await addLanguage(project, 'de');
    const key = (await (await t.call(project.apiKey, 'POST', '/v1/keys', { key: 'k', group_name: 'g' })).json()) as { id: string };
    await t.call(project.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'Wert', status: 'approved' });
    expect((await t.call(project.apiKey, 'POST', '/v1/cache/rebuild')).status).toBe(202);
    const event = await waitFor(() => receiver.accepted()[0], 15_000, 'cache.rebuilt');
    const data = event.verified!.data as { build_id: string; built_at: string; languages: { code: string; url: string; etag: string }[] };
    expect(event.verified!.type).toBe('cache.rebuilt');
    const cached = await t.call(project.apiKey, 'GET', '/v1/cached/translations/de');
    expect(cached.status).toBe(200);
    expect(data.languages).toEqual([{ code: 'de', url: buildLanguagePath(data.build_id, 'de'), etag: cached.headers.get('etag') }]);
    expect(Date.parse(data.built_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('survives an outage (500s, then the server down): retried with backoff, nothing lost, once recovered every message arrives', async () => {
    const { project, receiver, webhookId } = await hooked(['language.added']);
    receiver.mode = 'fail';
    const codes = ['de', 'fr', 'it', 'es', 'nl'];
    for (const code of codes) await addLanguage(project, code);
    // Every delivery failed at least twice with the endpoint's 500, and waits for its next attempt.
    await waitFor(async () => {
      const all = await deliveries(project, webhookId);
      return all.length === 5 && all.every((d) => d.status === 'pending' && d.attempts >= 2 && d.last_status_code === 500 && d.next_attempt_at) && all;
    }, 10_000, 'failed attempts');
    // Then the server goes away altogether: attempts fail without any answer.
    await receiver.down();
    await waitFor(async () => (await deliveries(project, webhookId)).some((d) => d.last_error === 'connection refused' && d.last_status_code === null), 15_000, 'a refused connection');
    receiver.mode = 'ok';
    await receiver.up();
    const delivered = await waitFor(async () => {
      const all = await deliveries(project, webhookId);
      return all.every((d) => d.status === 'succeeded') && all;
    }, 20_000, 'recovery');
    expect(delivered).toHaveLength(5);
    const languages = new Set(receiver.accepted().map((r) => r.verified!.data.language));
    expect([...languages].sort()).toEqual([...codes].sort());
    // At least once: each message arrived, with the same id and body on every attempt.
    for (const d of delivered) {
      const attempts = receiver.received.filter((r) => r.headers['webhook-id'] === d.message_id);
      expect(attempts.length).toBeGreaterThanOrEqual(1);
      expect(new Set(attempts.map((r) => r.body)).size).toBe(1);
      expect(attempts.filter((r) => r.status === 204).length).toBeGreaterThanOrEqual(1);
    }
    // Recovery cleared the endpoint's failing streak.
    const endpoint = (await (await t.admin('GET', `/projects/${project.projectId}/webhooks/${webhookId}`)).json()) as { failing_since: string | null; enabled: boolean };
    expect(endpoint).toMatchObject({ failing_since: null, enabled: true });
  });

  it('never follows a redirect: a 3xx is a failed attempt', async () => {
    const { project, receiver, webhookId } = await hooked(['language.added']);
    receiver.mode = 'redirect';
    await addLanguage(project, 'de');
    const [d] = await waitFor(async () => {
      const all = await deliveries(project, webhookId);
      return all[0]?.attempts && all[0].attempts >= 2 && all;
    });
    expect(d).toMatchObject({ status: 'pending', last_status_code: 307 });
    expect(d!.last_error).toContain('redirects are not followed');
    expect(receiver.received.every((r) => r.path === '/hook')).toBe(true);
  });

  it('a hanging endpoint is cut off by the timeout and never slows an API call', async () => {
    const { project, receiver, webhookId } = await hooked(['language.added', 'language.removed']);
    receiver.mode = 'hang';
    await addLanguage(project, 'de');
    await waitFor(() => receiver.received.length >= 1);
    // While the attempt hangs, writes answer at their usual speed.
    for (const code of ['fr', 'it']) {
      const started = performance.now();
      await addLanguage(project, code);
      expect(performance.now() - started).toBeLessThan(500);
    }
    const [first] = (await waitFor(async () => {
      const all = await deliveries(project, webhookId);
      return all.find((d) => d.last_error?.startsWith('no complete answer within 1000 ms')) && all;
    }, 10_000, 'timeout')).slice(-1);
    expect(first).toMatchObject({ status: 'pending', last_status_code: null });
  });

  it('replays a delivered message: same webhook-id and body, a new entry in the log', async () => {
    const { project, receiver, webhookId } = await hooked(['language.added']);
    await addLanguage(project, 'de');
    const [original] = await waitFor(async () => {
      const all = await deliveries(project, webhookId);
      return all[0]?.status === 'succeeded' && all;
    });
    const res = await t.admin('POST', `/projects/${project.projectId}/webhooks/${webhookId}/deliveries/${original!.id}/replay`);
    expect(res.status).toBe(202);
    const replay = (await res.json()) as Delivery;
    expect(replay).toMatchObject({ replay_of: original!.id, message_id: original!.message_id, status: 'pending', attempts: 0 });
    await waitFor(() => receiver.accepted().length >= 2);
    const [a, b] = receiver.accepted();
    expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
    expect(b!.body).toBe(a!.body);
    const log = await waitFor(async () => {
      const all = await deliveries(project, webhookId);
      return all.every((d) => d.status === 'succeeded') && all;
    });
    expect(log.map((d) => d.id)).toEqual([replay.id, original!.id]);

    // A pending delivery is not replayed (it is retried anyway).
    receiver.mode = 'fail';
    await addLanguage(project, 'fr');
    const pending = await waitFor(async () => (await deliveries(project, webhookId)).find((d) => d.status === 'pending' && d.attempts >= 1));
    expect((await t.admin('POST', `/projects/${project.projectId}/webhooks/${webhookId}/deliveries/${pending.id}/replay`)).status).toBe(409);
    // Another project's path cannot reach it.
    const other = await t.newProject();
    expect((await t.admin('POST', `/projects/${other.projectId}/webhooks/${webhookId}/deliveries/${original!.id}/replay`)).status).toBe(404);
  });

  it('never writes a signing secret, or a signature, to the log', async () => {
    expect(secrets.length).toBeGreaterThan(5);
    const text = JSON.stringify(log.lines);
    // The log did see this file's work: requests and failed attempts.
    expect(log.lines.some((l) => l.msg === 'webhook attempt failed')).toBe(true);
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice('whsec_'.length));
    }
    expect(text).not.toContain('v1,');
  });
});
