// Every form that checks a password counts its failures in the same counters: the invitation form
// (an address that already has a user joins with its password) is limited exactly as sign-in is,
// with the same answers, and a lockout earned on one form holds on the other. Every 429 a form
// answers says when to come back (Retry-After). And a form sent after its session ended says that,
// not that the form expired.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { hashPassword } from '../../core/users/password.ts';
import { createSession } from '../../core/users/sessions.ts';
import { createInvite } from '../../core/users/invites.ts';
import { FAILURES_PER_EMAIL, SIGN_IN_WINDOW_SECONDS } from '../../core/users/sign-in.ts';
import type { Clock } from '../../core/deps.ts';
import { PortalClient } from './support/portal-client.ts';

const t = useTestApp();
const PASSWORD = 'correct horse battery';
let accountId: string;
let ownerId: string;
let seq = 0;

/** A user with PASSWORD who is a member of the test account (an owner creates the invitations). */
async function user(role = 'translator'): Promise<{ id: string; email: string }> {
  const email = `user-${seq++}@example.com`;
  const [row] = await t.runtime.deps.sql<{ id: string }[]>`
    insert into users (email, password_hash) values (${email}, ${await hashPassword(PASSWORD)}) returning id`;
  await t.runtime.deps.sql`insert into memberships (user_id, account_id, role) values (${row!.id}, ${accountId}, ${role})`;
  return { id: row!.id, email };
}

/** An invitation link's path into a second account the owner also owns (so the test users are not members yet). */
async function inviteLink(into: string): Promise<string> {
  const invite = await createInvite(t.runtime.deps, { userId: ownerId, accountId: into, role: 'reviewer' });
  return `/portal/invite/${invite.token}`;
}

async function visitor(path: string): Promise<PortalClient> {
  const client = new PortalClient(t.app);
  await client.get(path);
  return client;
}

let other: string;
beforeAll(async () => {
  // One counting window for the whole file: a test that crossed a window's end would see its
  // counts reset. The counters expire keys by the real clock, so the window must end in the future:
  // now, or just after the next window starts when this one is about to end.
  const window = SIGN_IN_WINDOW_SECONDS * 1000;
  const real = Date.now();
  const pinned = new Date(window - (real % window) > 3 * 60_000 ? real : real - (real % window) + window + 1000);
  (t.runtime.deps as { clock: Clock }).clock = { now: () => pinned };
  const p = await t.newProject('team');
  accountId = p.accountId;
  ownerId = (await user('owner')).id;
  other = (await t.newProject('team')).accountId;
  await t.runtime.deps.sql`insert into memberships (user_id, account_id, role) values (${ownerId}, ${other}, 'owner')`;
});

describe('the invitation form checks passwords as sign-in does', () => {
  it('answers a wrong password as sign-in does, counts it, and past the limit answers 429 with Retry-After even for the right password; sign-in is locked too', async () => {
    const existing = await user();
    const link = await inviteLink(other);
    const tab = await visitor(link);
    for (let i = 0; i < FAILURES_PER_EMAIL; i++) {
      const wrong = await tab.post(link, { email: existing.email, password: `wrong password ${i}` });
      expect(wrong.status, `attempt ${i + 1}`).toBe(401);
      // The sign-in form's answer: nothing here says that the address has an account.
      expect(wrong.text).toContain('Wrong email or password');
      expect(wrong.text).not.toContain('This address already has an account');
    }
    const locked = await tab.post(link, { email: existing.email, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.text).toContain('Too many failed sign-in attempts');
    // The same counters: sign-in refuses the address as well, with the right password.
    const signIn = await visitor('/portal/sign-in');
    const refused = await signIn.post('/portal/sign-in', { email: existing.email, password: PASSWORD });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Nobody joined; the link still works for its invitee (a failed attempt does not use it up).
    const [joined] = await t.runtime.deps.sql`select 1 from memberships where user_id = ${existing.id} and account_id = ${other}`;
    expect(joined).toBeUndefined();
    expect((await new PortalClient(t.app).get(link)).text).toContain('Join');
  }, 120_000);

  it('a lockout earned on the sign-in form holds on the invitation form', async () => {
    const existing = await user();
    const signIn = await visitor('/portal/sign-in');
    for (let i = 0; i < FAILURES_PER_EMAIL; i++) expect((await signIn.post('/portal/sign-in', { email: existing.email, password: `wrong password ${i}` })).status).toBe(401);
    const link = await inviteLink(other);
    const tab = await visitor(link);
    const locked = await tab.post(link, { email: existing.email.toUpperCase(), password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    const [joined] = await t.runtime.deps.sql`select 1 from memberships where user_id = ${existing.id} and account_id = ${other}`;
    expect(joined).toBeUndefined();
  }, 120_000);

  it('the right password of an existing user joins; of a member already, signs them in (no distinct answer), the link unused', async () => {
    const existing = await user();
    const link = await inviteLink(other);
    const tab = await visitor(link);
    const joined = await tab.post(link, { email: existing.email, password: PASSWORD });
    expect([joined.status, joined.location]).toEqual([303, '/portal']);
    const [membership] = await t.runtime.deps.sql<{ role: string }[]>`select role from memberships where user_id = ${existing.id} and account_id = ${other}`;
    expect(membership?.role).toBe('reviewer');

    const member = await user();
    const link2 = await inviteLink(accountId);
    const tab2 = await visitor(link2);
    const again = await tab2.post(link2, { email: member.email, password: PASSWORD });
    expect([again.status, again.location]).toEqual([303, '/portal']);
    expect((await tab2.get('/portal')).status).toBe(200);
    const [role] = await t.runtime.deps.sql<{ role: string }[]>`select role from memberships where user_id = ${member.id} and account_id = ${accountId}`;
    expect(role?.role).toBe('translator');
    expect((await new PortalClient(t.app).get(link2)).status).toBe(200);
  }, 60_000);
});

describe('Retry-After on every 429 a form answers', () => {
  it('sign-in past the limit: 429, the page says when, and Retry-After says it to the browser', async () => {
    const existing = await user();
    const tab = await visitor('/portal/sign-in');
    for (let i = 0; i < FAILURES_PER_EMAIL; i++) await tab.post('/portal/sign-in', { email: existing.email, password: `wrong password ${i}` });
    const refused = await tab.post('/portal/sign-in', { email: existing.email, password: 'wrong again' });
    expect(refused.status).toBe(429);
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    expect(refused.text).toMatch(/try again in \d+ minutes/);
    // Still the page's own headers.
    expect(refused.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(refused.headers.get('cache-control')).toBe('no-store');
  }, 60_000);
});

describe('a form sent after the session ended', () => {
  it('says the session ended (sign in again), not that the form expired, and changes nothing', async () => {
    const u = await user('owner');
    const a = new PortalClient(t.app);
    const session = await createSession(t.runtime.deps, u.id);
    a.cookies.set('tms_session', session.token);
    const home = await a.get('/portal');
    expect(home.status).toBe(200);
    const csrf = a.csrf;
    // Another tab (same cookies) signs out everywhere; the cookie is cleared.
    expect((await a.post('/portal/sign-out-everywhere')).status).toBe(303);
    expect(a.cookies.has('tms_session')).toBe(false);
    const create = await a.post(`/portal/accounts/${accountId}/projects`, { _csrf: csrf, name: 'after sign-out' });
    expect(create.status).toBe(401);
    expect(create.text).toContain('Your session has ended');
    expect(create.text).toContain('/portal/sign-in');
    expect(create.text).not.toContain('CSRF');
    // The script's save (JSON) hears the same.
    const json = await a.post(`/portal/accounts/${accountId}/projects`, { _csrf: csrf, name: 'after sign-out' }, { Accept: 'application/json' });
    expect(json.status).toBe(401);
    expect(JSON.parse(json.text).detail).toMatch(/session has ended.*sign in again/);

    // Another device: its cookie still names the ended session.
    const b = new PortalClient(t.app);
    const second = await createSession(t.runtime.deps, u.id);
    b.cookies.set('tms_session', second.token);
    await b.get('/portal');
    const c = new PortalClient(t.app);
    c.cookies.set('tms_session', (await createSession(t.runtime.deps, u.id)).token);
    await c.get('/portal');
    expect((await c.post('/portal/sign-out-everywhere')).status).toBe(303);
    const stale = await b.post(`/portal/accounts/${accountId}/projects`, { name: 'after sign-out' });
    expect(stale.status).toBe(401);
    expect(stale.text).toContain('Your session has ended');
    const [made] = await t.runtime.deps.sql`select 1 from projects where account_id = ${accountId} and name = 'after sign-out'`;
    expect(made).toBeUndefined();

    // A live session with a wrong token is still the CSRF refusal, and so is a pre-session form.
    const live = new PortalClient(t.app);
    live.cookies.set('tms_session', (await createSession(t.runtime.deps, u.id)).token);
    await live.get('/portal');
    expect((await live.post(`/portal/accounts/${accountId}/projects`, { _csrf: 'A'.repeat(43), name: 'x' })).status).toBe(403);
    const anon = await visitor('/portal/sign-in');
    const forged = await anon.post('/portal/sign-in', { _csrf: 'A'.repeat(43), email: u.email, password: PASSWORD });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('CSRF');
  });

  it('a value saved without script after the session ended: the typed text is shown to copy, and the sign-in link goes back to the editor', async () => {
    const u = await user('owner');
    const a = new PortalClient(t.app);
    a.cookies.set('tms_session', (await createSession(t.runtime.deps, u.id)).token);
    await a.get('/portal');
    const csrf = a.csrf;
    expect((await a.post('/portal/sign-out-everywhere')).status).toBe(303);
    const projectId = '00000000-0000-4000-8000-000000000001';
    const editor = `/portal/projects/${projectId}?lang=ar&q=home`;
    const typed = 'مرحبا <b>بكم</b> & "أهلا"';
    const save = await a.post(`/portal/projects/${projectId}/keys/00000000-0000-4000-8000-000000000002/values/ar`, { _csrf: csrf, value: typed, status: 'draft', return_to: editor, version: '3' });
    expect(save.status).toBe(401);
    expect(save.text).toContain('Your session has ended');
    expect(save.text).toContain(`/portal/sign-in?next=${encodeURIComponent(editor)}`);
    // The text, escaped, in a read-only field in its language and direction.
    expect(save.text).toContain('<textarea id="typed-text" readonly="" rows="4" lang="ar" dir="rtl">مرحبا &lt;b&gt;بكم&lt;/b&gt; &amp; &quot;أهلا&quot;</textarea>');
    // A return_to elsewhere is not followed; a form without a value shows no text.
    const away = await a.post(`/portal/projects/${projectId}/keys/00000000-0000-4000-8000-000000000002/values/ar`, { _csrf: csrf, value: typed, return_to: 'https://evil.example/portal/x' });
    expect(away.text).not.toContain('evil.example');
    const other = await a.post(`/portal/accounts/${accountId}/projects`, { _csrf: csrf, name: 'x' });
    expect(other.text).not.toContain('typed-text');
  });
});
