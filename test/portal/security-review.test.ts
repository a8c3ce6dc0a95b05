// Security review (2026-11-27), portal findings: an invitation link's one-time token never reaches
// the request log, and behind a reverse proxy that ends TLS (X-Forwarded-Proto: https) the cookies
// are Secure, with the __Host- prefix, invitation links are https, and the answers pin HTTPS (HSTS).
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../core/log.ts';
import { useTestApp, ADMIN_TOKEN } from '../support/test-app.ts';
import { PortalClient } from './support/portal-client.ts';

const log = createMemoryLogger();
const t = useTestApp({ log });
const PASSWORD = 'correct horse battery';

/** A client whose every request went through a TLS-ending proxy. */
class ProxiedClient extends PortalClient {
  override request(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) {
    return super.request(method, path, { ...init, headers: { 'X-Forwarded-Proto': 'https', ...init.headers } });
  }
}

let owner: PortalClient;
let accountId: string;

describe('portal security (review 2026-11-27)', () => {
  it('never writes an invitation token to the request log', async () => {
    owner = new PortalClient(t.app);
    await owner.get('/portal/setup');
    const done = await owner.post('/portal/setup', { admin_token: ADMIN_TOKEN, email: 'owner@example.com', password: PASSWORD, account_name: 'Acme', plan: 'team' });
    expect(done.status).toBe(303);
    accountId = /\/portal\/accounts\/([0-9a-f-]{36})\/members/.exec((await owner.get('/portal')).text)![1]!;
    const invited = await owner.post(`/portal/accounts/${accountId}/invites`, { role: 'translator', languages: 'de' });
    const path = new URL(/value="(http:\/\/localhost\/portal\/invite\/[^"]+)"/.exec(invited.text)![1]!).pathname;
    const token = path.split('/').at(-1)!;

    const invitee = new PortalClient(t.app);
    expect((await invitee.get(path)).status).toBe(200);
    expect((await invitee.post(path, { email: 'tr@example.com', password: PASSWORD })).status).toBe(303);

    const requests = log.lines.filter((l) => l.msg === 'request' && String(l.path).startsWith('/portal/invite/'));
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(log.lines)).not.toContain(token);
    expect(requests.map((l) => l.path)).toContain('/portal/invite/[token]');
  });

  it('behind a proxy that ends TLS: Secure __Host- cookies, and https invitation links', async () => {
    const browser = new ProxiedClient(t.app);
    const signIn = await browser.get('/portal/sign-in');
    const preSession = signIn.headers.getSetCookie().join('\n');
    expect(signIn.headers.get('strict-transport-security')).toBe('max-age=31536000');
    expect(preSession).toMatch(/^__Host-tms_csrf=[^;]+;.*Secure/im);
    const signedIn = await browser.post('/portal/sign-in', { email: 'owner@example.com', password: PASSWORD });
    expect(signedIn.status).toBe(303);
    const session = signedIn.headers.getSetCookie().find((c) => c.includes('tms_session='))!;
    expect(session).toMatch(/^__Host-tms_session=/);
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*HttpOnly/i);
    expect(session).toMatch(/;\s*SameSite=Lax/i);
    // The session works on the next request through the proxy.
    expect((await browser.get('/portal')).status).toBe(200);

    const invited = await browser.post(`/portal/accounts/${accountId}/invites`, { role: 'reviewer', languages: 'de' });
    expect(invited.text).toMatch(/value="https:\/\/localhost\/portal\/invite\/[^"]+"/);

    // Behind CloudFront the function sees API Gateway's address; the browser's Origin names the
    // address the owner uses, and the link goes there. A missing or opaque Origin keeps the request's.
    const viaCdn = await browser.post(`/portal/accounts/${accountId}/invites`, { role: 'reviewer', languages: 'de' }, { Origin: 'https://translations.example.com' });
    expect(viaCdn.text).toMatch(/value="https:\/\/translations\.example\.com\/portal\/invite\/[^"]+"/);
    const opaque = await browser.post(`/portal/accounts/${accountId}/invites`, { role: 'reviewer', languages: 'de' }, { Origin: 'null' });
    expect(opaque.text).toMatch(/value="https:\/\/localhost\/portal\/invite\/[^"]+"/);

    // Straight to the server over plain HTTP (no proxy), nothing changes.
    const direct = await new PortalClient(t.app).get('/portal/sign-in');
    expect(direct.headers.getSetCookie().join('\n')).toMatch(/^tms_csrf=/m);
    expect(direct.headers.get('strict-transport-security')).toBeNull();
  });
});
