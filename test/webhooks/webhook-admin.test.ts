// The webhook endpoints' admin API with the default configuration (private targets refused):
// creation shows the secret once, reads never do, validation (URLs, event names), refusal of private,
// loopback, link-local and unique-local targets (literal and by name, at creation and again at
// delivery time), isolation between projects, and the OpenAPI description.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { isNonPublicAddress } from '../../core/webhooks/target-address.ts';
import { sendWebhook } from '../../core/webhooks/send-webhook.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

const t = useTestApp();
const PUBLIC_URL = 'https://93.184.216.34/hooks/tms';

type Issue = { loc: (string | number)[]; msg: string };

describe('webhook endpoints: admin API', () => {
  it('creates, lists, reads, updates and deletes; the secret is shown once', async () => {
    const p = await t.newProject();
    const res = await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: PUBLIC_URL, events: ['cache.rebuilt', 'cache.rebuilt', 'language.added'], description: 'deploys' });
    expect(res.status).toBe(201);
    const created = (await res.json()) as Record<string, unknown> & { id: string; secret: string };
    expect(created).toMatchObject({ project_id: p.projectId, url: PUBLIC_URL, events: ['cache.rebuilt', 'language.added'], description: 'deploys', enabled: true, disabled_reason: null, failing_since: null });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    const read = (await (await t.admin('GET', `/projects/${p.projectId}/webhooks/${created.id}`)).json()) as Record<string, unknown>;
    expect(read).not.toHaveProperty('secret');
    expect(JSON.stringify(read)).not.toContain(created.secret.slice(6));
    const list = (await (await t.admin('GET', `/projects/${p.projectId}/webhooks`)).json()) as { webhooks: Record<string, unknown>[] };
    expect(list.webhooks).toEqual([read]);

    const patched = await t.admin('PATCH', `/projects/${p.projectId}/webhooks/${created.id}`, { events: ['translations.changed'], enabled: false });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ events: ['translations.changed'], enabled: false, disabled_reason: 'manual' });
    const enabled = await t.admin('PATCH', `/projects/${p.projectId}/webhooks/${created.id}`, { enabled: true, description: null });
    expect(await enabled.json()).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null, description: null });

    expect((await t.admin('GET', `/projects/${p.projectId}/webhooks/${created.id}/deliveries`)).status).toBe(200);
    expect((await t.admin('DELETE', `/projects/${p.projectId}/webhooks/${created.id}`)).status).toBe(204);
    expect((await t.admin('GET', `/projects/${p.projectId}/webhooks/${created.id}`)).status).toBe(404);
    expect((await t.admin('DELETE', `/projects/${p.projectId}/webhooks/${created.id}`)).status).toBe(404);
  });

  it('refuses unknown event names, an empty list, bad URLs and unknown fields with 422', async () => {
    const p = await t.newProject();
    const post = (body: unknown) => t.admin('POST', `/projects/${p.projectId}/webhooks`, body);
    const unknown = await post({ url: PUBLIC_URL, events: ['cache.rebuilt', 'key.created'] });
    expect(unknown.status).toBe(422);
    expect(((await unknown.json()) as { detail: Issue[] }).detail[0]!.loc).toEqual(['body', 'events', 1]);
    expect((await post({ url: PUBLIC_URL, events: [] })).status).toBe(422);
    expect((await post({ url: PUBLIC_URL })).status).toBe(422);
    expect((await post({ url: PUBLIC_URL, events: ['cache.rebuilt'], secret: 'mine' })).status).toBe(422);
    for (const url of ['ftp://93.184.216.34/x', 'not a url', '/relative', 'https://user:pw@93.184.216.34/x', 'javascript:alert(1)']) {
      const res = await post({ url, events: ['cache.rebuilt'] });
      expect(res.status, url).toBe(422);
      expect(((await res.json()) as { detail: Issue[] }).detail[0]!.loc, url).toEqual(['body', 'url']);
    }
    expect((await t.admin('PATCH', `/projects/${p.projectId}/webhooks/${crypto.randomUUID()}`, {})).status).toBe(422);
    expect((await t.admin('GET', `/projects/${p.projectId}/webhooks`)).status).toBe(200);
    expect((await t.admin('GET', `/projects/${crypto.randomUUID()}/webhooks`)).status).toBe(404);
    expect((await t.admin('POST', `/projects/${crypto.randomUUID()}/webhooks`, { url: PUBLIC_URL, events: ['cache.rebuilt'] })).status).toBe(404);
  });

  it('refuses private, loopback, link-local and unique-local targets, literal or by name, on create and update', async () => {
    const p = await t.newProject();
    const refused = [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://10.1.2.3/hook',
      'http://172.16.0.1/hook',
      'http://192.168.1.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1/hook',
      'http://0.0.0.0/hook',
      'http://[::1]/hook',
      'http://[fe80::1]/hook',
      'http://[fd12:3456::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:a9fe:a9fe]/hook',
      'http://2130706433/hook', // 127.0.0.1 as one number: the URL parser normalizes it
    ];
    for (const url of refused) {
      const res = await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url, events: ['cache.rebuilt'] });
      expect(res.status, url).toBe(422);
      expect(((await res.json()) as { detail: Issue[] }).detail[0]!.msg, url).toContain('WEBHOOKS_ALLOW_PRIVATE_TARGETS');
    }
    const created = (await (await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: PUBLIC_URL, events: ['cache.rebuilt'] })).json()) as { id: string };
    expect((await t.admin('PATCH', `/projects/${p.projectId}/webhooks/${created.id}`, { url: 'http://127.0.0.1/x' })).status).toBe(422);
    expect((await t.admin('GET', `/projects/${p.projectId}/webhooks`)).status).toBe(200);
  });

  it('checks the address again at delivery time, and connects only to the address it checked', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const attempt = (url: string, allowPrivate: boolean) => sendWebhook({ url, headers: {}, body: '{}', timeoutMs: 1000, allowPrivate });
      // A name that resolves to loopback (as a rebinding DNS answer would) is refused before connecting.
      const byName = await attempt(receiver.url().replace('127.0.0.1', 'localhost'), false);
      expect(byName).toMatchObject({ ok: false, statusCode: null });
      expect(byName.error).toContain('refused');
      expect(await attempt(receiver.url(), false)).toMatchObject({ ok: false, statusCode: null });
      expect(receiver.received).toHaveLength(0);
      // Allowed, the same attempt reaches the server (which, with no secret to verify, answers 401).
      expect(await attempt(receiver.url(), true)).toMatchObject({ ok: false, statusCode: 401 });
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('classifies addresses: IPv4 and IPv6, mapped and embedded forms', () => {
    for (const a of ['127.0.0.1', '10.0.0.1', '172.31.255.255', '192.168.0.1', '169.254.1.1', '100.127.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
      '::1', '::', 'fe80::1', 'febf::1', 'fc00::1', 'fdff::1', '::ffff:10.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1', 'ff02::1', 'not-an-ip']) {
      expect(isNonPublicAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '2a00:1450::1', '::ffff:8.8.8.8']) {
      expect(isNonPublicAddress(a), a).toBe(false);
    }
  });

  it('one project can neither see nor touch another project\'s endpoints or deliveries', async () => {
    const a = await t.newProject();
    const b = await t.newProject();
    const created = (await (await t.admin('POST', `/projects/${a.projectId}/webhooks`, { url: PUBLIC_URL, events: ['cache.rebuilt'] })).json()) as { id: string };
    const path = `/projects/${b.projectId}/webhooks/${created.id}`;
    expect((await t.admin('GET', path)).status).toBe(404);
    expect((await t.admin('PATCH', path, { enabled: false })).status).toBe(404);
    expect((await t.admin('DELETE', path)).status).toBe(404);
    expect((await t.admin('GET', `${path}/deliveries`)).status).toBe(404);
    expect((await t.admin('POST', `${path}/deliveries/${crypto.randomUUID()}/replay`)).status).toBe(404);
    expect(((await (await t.admin('GET', `/projects/${b.projectId}/webhooks`)).json()) as { webhooks: unknown[] }).webhooks).toEqual([]);
    // Still there, untouched, for its own project.
    expect(await (await t.admin('GET', `/projects/${a.projectId}/webhooks/${created.id}`)).json()).toMatchObject({ enabled: true });
    // An API key is not the admin token.
    expect((await t.call(a.apiKey, 'GET', `/admin/v1/projects/${a.projectId}/webhooks`)).status).toBe(401);
    expect((await t.call(undefined, 'GET', `/admin/v1/projects/${a.projectId}/webhooks`)).status).toBe(401);
  });

  it('caps the endpoints of a project', async () => {
    const p = await t.newProject();
    for (let i = 0; i < 20; i++) {
      expect((await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: `${PUBLIC_URL}/${i}`, events: ['cache.rebuilt'] })).status).toBe(201);
    }
    expect((await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: PUBLIC_URL, events: ['cache.rebuilt'] })).status).toBe(409);
  });

  it('describes every webhook route in /openapi.json', async () => {
    const doc = (await (await t.call(undefined, 'GET', '/openapi.json')).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    for (const id of ['createWebhook', 'listWebhooks', 'getWebhook', 'updateWebhook', 'deleteWebhook', 'listWebhookDeliveries', 'replayWebhookDelivery']) {
      expect(ops).toContain(id);
    }
    expect(doc.paths['/admin/v1/projects/{project_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/replay']).toBeDefined();
  });
});
