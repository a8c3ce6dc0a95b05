// The portal through HTTP: setup of the first owner, sign-in and sign-out, CSRF on every POST,
// security headers, invitations, and isolation (a user never sees another account's project).
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestApp, ADMIN_TOKEN } from '../support/test-app.ts';
import { PortalClient } from './support/portal-client.ts';
import { holdRebuild, requestRebuild } from '../../core/cache/request-rebuild.ts';
import { ADMIN } from '../../core/actor.ts';

const t = useTestApp();
const PASSWORD = 'correct horse battery';
let owner: PortalClient;

const projectIdIn = (html: string) => /\/portal\/projects\/([0-9a-f-]{36})/.exec(html)?.[1];

describe('first visit', () => {
  it('sends a fresh installation to setup, refuses a wrong token, creates the owner and signs them in', async () => {
    owner = new PortalClient(t.app);
    const home = await owner.get('/portal');
    expect([home.status, home.location]).toEqual([303, '/portal/setup']);
    const setup = await owner.get('/portal/setup');
    expect(setup.status).toBe(200);
    expect(setup.text).toContain('Admin token');

    const wrong = await owner.post('/portal/setup', { admin_token: 'nope', email: 'owner@example.com', password: PASSWORD, account_name: 'Acme', plan: 'team' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Invalid admin token');
    expect(wrong.text).toContain('value="owner@example.com"');
    // The refused form keeps what was chosen: the plan too, not back to unlimited.
    expect(wrong.text).toMatch(/<option value="team" selected="">/);
    expect(wrong.text).not.toMatch(/<option value="unlimited" selected="">/);

    const short = await owner.post('/portal/setup', { admin_token: ADMIN_TOKEN, email: 'owner@example.com', password: 'short', account_name: 'Acme', plan: 'team' });
    expect(short.status).toBe(422);
    expect(short.text).toContain('at least 8 characters');

    const done = await owner.post('/portal/setup', { admin_token: ADMIN_TOKEN, email: 'owner@example.com', password: PASSWORD, account_name: 'Acme', plan: 'team' });
    expect([done.status, done.location]).toEqual([303, '/portal']);
    const projects = await owner.get('/portal');
    expect(projects.status).toBe(200);
    expect(projects.text).toContain('Acme');
    expect(projects.text).toContain('owner@example.com');

    const again = await new PortalClient(t.app).get('/portal/setup');
    expect([again.status, again.location]).toEqual([303, '/portal/sign-in']);
  });
});

describe('every page', () => {
  it('carries the security headers, with no inline script allowed', async () => {
    for (const path of ['/portal/sign-in', '/portal', '/portal/nowhere']) {
      const res = await owner.get(path);
      expect(res.headers.get('content-security-policy'), path).toContain("script-src 'self'");
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(res.text).not.toMatch(/\son[a-z]+=/);
    }
    expect((await owner.get('/portal/nowhere')).status).toBe(404);
    const css = await owner.get('/portal/assets/portal.css');
    expect([css.status, css.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8']);
  });

  it('session cookies are HttpOnly and SameSite=Lax; over HTTPS Secure and __Host- prefixed', async () => {
    const https = new PortalClient(t.app, 'https://portal.example');
    await https.get('/portal/sign-in');
    const res = await t.app.request('https://portal.example/portal/sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: [...https.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      body: new URLSearchParams({ _csrf: https.csrf, email: 'owner@example.com', password: PASSWORD }).toString(),
    });
    expect(res.status).toBe(303);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('__Host-tms_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/Path=\//);

    // Signing out clears that same cookie.
    const token = cookie.split(';')[0]!;
    const page = await t.app.request('https://portal.example/portal', { headers: { Cookie: token } });
    const csrf = /name="csrf-token" content="([^"]+)"/.exec(await page.text())![1]!;
    const out = await t.app.request('https://portal.example/portal/sign-out', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: token },
      body: new URLSearchParams({ _csrf: csrf }).toString(),
    });
    expect(out.status).toBe(303);
    expect(out.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^__Host-tms_session=; Max-Age=0; Path=\/; .*Secure/));
  });
});

describe('CSRF', () => {
  it('refuses a POST without the token, with a wrong one, or labelled cross-site, and writes nothing', async () => {
    const before = (await owner.get('/portal')).text;
    const accountId = /\/portal\/accounts\/([0-9a-f-]{36})\/projects/.exec(before)![1]!;
    expect((await owner.post(`/portal/accounts/${accountId}/projects`, { _csrf: '', name: 'x' })).status).toBe(403);
    expect((await owner.post(`/portal/accounts/${accountId}/projects`, { _csrf: 'A'.repeat(43), name: 'x' })).status).toBe(403);
    // As many characters as a token, more bytes: a mismatch, never a 500.
    expect((await owner.post(`/portal/accounts/${accountId}/projects`, { _csrf: 'é'.repeat(43), name: 'x' })).status).toBe(403);
    expect((await owner.post(`/portal/accounts/${accountId}/projects`, { name: 'x' }, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    // A signed-out visitor's token is not the session's.
    const stranger = new PortalClient(t.app);
    await stranger.get('/portal/sign-in');
    expect((await owner.post(`/portal/accounts/${accountId}/projects`, { _csrf: stranger.csrf, name: 'x' })).status).toBe(403);
    expect(projectIdIn((await owner.get('/portal')).text)).toBeUndefined();
  });
});

describe('sign-in and sign-out', () => {
  it('signs in, refuses wrong passwords with one message, signs out one device or everywhere', async () => {
    const a = new PortalClient(t.app);
    await a.get('/portal/sign-in');
    const bad = await a.post('/portal/sign-in', { email: 'owner@example.com', password: 'wrong password' });
    expect(bad.status).toBe(401);
    expect(bad.text).toContain('Wrong email or password');
    expect((await a.post('/portal/sign-in', { email: 'OWNER@example.com', password: PASSWORD })).location).toBe('/portal');
    const b = new PortalClient(t.app);
    await b.get('/portal/sign-in');
    await b.post('/portal/sign-in', { email: 'owner@example.com', password: PASSWORD });
    expect((await b.get('/portal')).status).toBe(200);

    await a.get('/portal');
    expect((await a.post('/portal/sign-out')).location).toBe('/portal/sign-in');
    expect((await a.get('/portal')).location).toBe('/portal/sign-in');
    expect((await b.get('/portal')).status).toBe(200);

    await a.get('/portal/sign-in');
    await a.post('/portal/sign-in', { email: 'owner@example.com', password: PASSWORD });
    await a.get('/portal');
    expect((await a.post('/portal/sign-out-everywhere')).status).toBe(303);
    expect((await b.get('/portal')).location).toBe('/portal/sign-in');
    expect((await owner.get('/portal')).location).toBe('/portal/sign-in');
    await owner.get('/portal/sign-in');
    await owner.post('/portal/sign-in', { email: 'owner@example.com', password: PASSWORD });
  });

  it('a page of a project answers 401 (a sign-in link) when signed out', async () => {
    const anon = new PortalClient(t.app);
    const res = await anon.get(`/portal/projects/${crypto.randomUUID()}`);
    expect(res.status).toBe(401);
    expect(res.text).toContain('/portal/sign-in');
  });

  it('brings a signed-out visitor back to the page they asked for, and only to a page of the portal', async () => {
    const asked = `/portal/projects/${crypto.randomUUID()}/activity?before=5`;
    const anon = new PortalClient(t.app);
    const res = await anon.get(asked);
    expect(res.status).toBe(401);
    const link = /<a href="([^"]+)">Sign in<\/a>/.exec(res.text)![1]!.replaceAll('&amp;', '&');
    expect(link).toBe(`/portal/sign-in?next=${encodeURIComponent(asked)}`);
    const form = await anon.get(link);
    expect(form.text).toContain(`name="next" value="${asked.replace('&', '&amp;')}"`);
    const signedIn = await anon.post('/portal/sign-in', { email: 'owner@example.com', password: PASSWORD, next: asked });
    expect(signedIn.location).toBe(asked);
    // A wrong password keeps it for the next try.
    const other = new PortalClient(t.app);
    await other.get('/portal/sign-in');
    expect((await other.post('/portal/sign-in', { email: 'owner@example.com', password: 'wrong password', next: asked })).text).toContain('name="next"');
    for (const elsewhere of ['https://evil.example/portal/x', '//evil.example/portal/x', '/portal\\@evil.example', '/elsewhere', '/portal/../admin/v1/accounts']) {
      const c = new PortalClient(t.app);
      await c.get('/portal/sign-in');
      expect((await c.post('/portal/sign-in', { email: 'owner@example.com', password: PASSWORD, next: elsewhere })).location, elsewhere).toBe('/portal');
    }
  });
});

describe('projects, invitations and isolation', () => {
  let projectId: string;
  beforeAll(async () => {
    const home = (await owner.get('/portal')).text;
    const accountId = /\/portal\/accounts\/([0-9a-f-]{36})\/projects/.exec(home)![1]!;
    const created = await owner.post(`/portal/accounts/${accountId}/projects`, { name: 'Mobile app' });
    expect(created.status).toBe(201);
    expect(created.text).toMatch(/key_live_[0-9A-Za-z]{40}/);
    projectId = projectIdIn(created.text)!;
  });

  it('a create form sent twice (a reload of its answer) creates once, and never shows the key again', async () => {
    const home = (await owner.get('/portal')).text;
    const accountId = /\/portal\/accounts\/([0-9a-f-]{36})\/projects/.exec(home)![1]!;
    const submission = /name="submission" value="([0-9a-f-]{36})"/.exec(home)![1]!;
    const first = await owner.post(`/portal/accounts/${accountId}/projects`, { name: 'Sent twice', submission });
    expect(first.status).toBe(201);
    expect(first.text).toMatch(/key_live_[0-9A-Za-z]{40}/);
    const again = await owner.post(`/portal/accounts/${accountId}/projects`, { name: 'Sent twice', submission });
    expect(again.status).toBe(200);
    expect(again.text).toContain('This form was already sent, and that created the project');
    expect(again.text).not.toMatch(/key_live_/);
    expect(projectIdIn(again.text)).toBe(projectIdIn(first.text));
    const named = await t.runtime.deps.sql`select id from projects where account_id = ${accountId} and name = 'Sent twice'`;
    expect(named).toHaveLength(1);
    // The same page sent with another name (back, then a new name) is another project.
    expect((await owner.post(`/portal/accounts/${accountId}/projects`, { name: 'Sent again, renamed', submission })).status).toBe(201);

    const keysPage = (await owner.get(`/portal/projects/${projectIdIn(first.text)}/api-keys`)).text;
    const keyForm = /name="submission" value="([0-9a-f-]{36})"/.exec(keysPage)![1]!;
    const key = await owner.post(`/portal/projects/${projectIdIn(first.text)}/api-keys`, { name: 'CI', kind: 'live', submission: keyForm });
    expect(key.status).toBe(201);
    expect(key.text).toMatch(/key_live_[0-9A-Za-z]{40}/);
    const keyAgain = await owner.post(`/portal/projects/${projectIdIn(first.text)}/api-keys`, { name: 'CI', kind: 'live', submission: keyForm });
    expect(keyAgain.status).toBe(200);
    expect(keyAgain.text).toContain('This form was already sent, and that created the key');
    expect(keyAgain.text).not.toMatch(/key_live_[0-9A-Za-z]{40}/);
    expect(await t.runtime.deps.sql`select id from api_keys where project_id = ${projectIdIn(first.text)!} and name = 'CI'`).toHaveLength(1);
    // The same token sent to another project's form (two tabs, one page's token) creates its key
    // there: it is no replay of the first project's.
    const other = await owner.post(`/portal/accounts/${accountId}/projects`, { name: 'Other project' });
    const elsewhere = await owner.post(`/portal/projects/${projectIdIn(other.text)}/api-keys`, { name: 'CI', kind: 'live', submission: keyForm });
    expect(elsewhere.status).toBe(201);
    expect(await t.runtime.deps.sql`select id from api_keys where project_id = ${projectIdIn(other.text)!} and name = 'CI'`).toHaveLength(1);
  });

  it('lists the invitations not used yet, and an owner revokes one: its link stops working', async () => {
    const home = (await owner.get('/portal')).text;
    const accountId = /\/portal\/accounts\/([0-9a-f-]{36})\/members/.exec(home)![1]!;
    const invited = await owner.post(`/portal/accounts/${accountId}/invites`, { role: 'reviewer', languages: 'fr' });
    const path = new URL(/value="(http:\/\/localhost\/portal\/invite\/[^"]+)"/.exec(invited.text)![1]!).pathname;
    const members = (await owner.get(`/portal/accounts/${accountId}/members`)).text;
    expect(members).toContain('Pending invitations');
    expect(members).toContain('reviewer (fr)');
    expect(members).not.toContain(path.split('/').at(-1)!); // the token is never shown again
    const revoke = /action="(\/portal\/accounts\/[0-9a-f-]{36}\/invites\/[0-9a-f-]{36}\/revoke)"/.exec(members)![1]!;
    const inviteId = revoke.split('/')[5]!;
    // Another account's owner cannot: it answers as if there were no such invitation.
    const other = await t.newProject('team');
    expect((await owner.post(`/portal/accounts/${other.accountId}/invites/${inviteId}/revoke`, {})).status).toBe(404);
    expect((await new PortalClient(t.app).get(path)).status).toBe(200);

    const revoked = await owner.follow(await owner.post(revoke, {}));
    expect(revoked.status).toBe(200);
    expect(revoked.text).toContain('Invitation revoked: its link no longer works.');
    expect(revoked.text).not.toContain('reviewer (fr)');
    expect((await new PortalClient(t.app).get(path)).status).toBe(404);
    expect((await owner.post(revoke, {})).status).toBe(404);
  });

  it('a translator joins by a one-time link and sees only their account', async () => {
    const other = await t.newProject('team');
    const home = (await owner.get('/portal')).text;
    const accountId = /\/portal\/accounts\/([0-9a-f-]{36})\/members/.exec(home)![1]!;
    const invited = await owner.post(`/portal/accounts/${accountId}/invites`, { role: 'translator', languages: 'de' });
    expect(invited.status).toBe(201);
    const link = /value="(http:\/\/localhost\/portal\/invite\/[^"]+)"/.exec(invited.text)![1]!;
    const path = new URL(link).pathname;

    const tr = new PortalClient(t.app);
    expect((await tr.get(path)).text).toContain('translator');
    const joined = await tr.post(path, { email: 'tr@example.com', password: PASSWORD });
    expect(joined.location).toBe('/portal');
    const trHome = await tr.get('/portal');
    expect(trHome.text).toContain('Mobile app');
    expect(trHome.text).not.toContain('Create project');

    const reuse = new PortalClient(t.app);
    expect((await reuse.get(path)).status).toBe(404);

    // Another account's project answers as if it did not exist, on every kind of page.
    for (const p of [`/portal/projects/${other.projectId}`, `/portal/projects/${other.projectId}/languages`, `/portal/projects/${other.projectId}/cache-status`]) {
      expect((await tr.get(p)).status, p).toBe(404);
      expect((await owner.get(p)).status, p).toBe(404);
    }
    expect((await owner.post(`/portal/projects/${other.projectId}/languages`, { code: 'fr' })).status).toBe(404);
    // Ids that are not UUIDs (36 characters of hex and dashes included) are a 404, never a 500.
    for (const id of ['-'.repeat(36), 'not-a-project', `${other.projectId}0`]) {
      expect((await owner.get(`/portal/projects/${id}`)).status, id).toBe(404);
    }
    expect((await owner.post(`/portal/projects/${projectId}/trash/keys/${'-'.repeat(36)}/restore`, {})).status).toBe(404);
    expect((await owner.get(`/portal/accounts/${other.accountId}/members`)).status).toBe(404);
    expect((await t.call(other.apiKey, 'GET', '/v1/languages')).status).toBe(200);
    expect(((await (await t.call(other.apiKey, 'GET', '/v1/languages')).json()) as { count: number }).count).toBe(0);
    expect(projectId).toBeDefined();
  });

  it('the publish status follows the build: Publishing… while one is pending, Published once done, even done before the page', async () => {
    const status = (html: string) => /<span[^>]*id="cache-status"[^>]*data-pending="(true|false)"[^>]*>([^<]*)</.exec(html)?.slice(1);
    expect(status((await owner.get(`/portal/projects/${projectId}`)).text)).toEqual(['false', 'Not published yet']);
    // A build held (as auto-publish holds one while a process's edits go on): pending, and the page says so.
    await holdRebuild(t.runtime.deps, projectId, 'another-replica', 60_000);
    expect(status((await owner.get(`/portal/projects/${projectId}/languages`)).text)).toEqual(['true', 'Publishing…']);
    expect((JSON.parse((await owner.get(`/portal/projects/${projectId}/cache-status`)).text) as { pending: boolean }).pending).toBe(true);
    // Publish builds at once; the hold stands for the edits its process may still make (core/cache/auto-rebuild.ts).
    const published = await owner.post(`/portal/projects/${projectId}/publish`, {});
    expect([published.status, published.location]).toEqual([303, `/portal/projects/${projectId}`]);
    await vi.waitFor(async () => expect((await owner.get(`/portal/projects/${projectId}/cache-status`)).text).toMatch(/"last_rebuilt_at":"\d/), { timeout: 10_000 });
    expect(status((await owner.get(`/portal/projects/${projectId}/languages`)).text)).toEqual(['true', 'Publishing…']);
    // Its timer replaces it with a request once the edits pause; the in-process builder may finish
    // before the next page is rendered, and then that page says Published (it once said Publishing…
    // and waited for a change forever).
    await requestRebuild(t.runtime.deps, { projectId, actor: ADMIN, releaseHold: 'another-replica' });
    await t.runtime.rebuilds!.idle();
    const [pending, text] = status((await owner.get(published.location!)).text)!;
    expect(pending).toBe('false');
    expect(text).toMatch(/^Published \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  });
});
