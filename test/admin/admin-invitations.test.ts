// An account made through the admin API (as the README's first steps make one) had no portal member,
// and portal setup makes an account of its own: nothing a team built with the API could be reached
// in the portal. The admin API's invitation is a one-time portal link into any account.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { PortalClient } from '../portal/support/portal-client.ts';

const t = useTestApp();
const PASSWORD = 'correct horse battery';

type Invite = { id: string; token: string; path: string; role: string; languages: string[] | null; expires_at: string };

describe('POST /admin/v1/accounts/{account_id}/invitations', () => {
  it('without a body: an owner link; the invitee sets a password and sees the account and its projects made through the API', async () => {
    const project = await t.newProject('team');
    expect((await t.admin('POST', `/accounts/${project.accountId}/projects`, { name: 'Mobile app' })).status).toBe(201);
    const res = await t.admin('POST', `/accounts/${project.accountId}/invitations`);
    expect(res.status).toBe(201);
    const invite = (await res.json()) as Invite;
    expect(invite).toMatchObject({ role: 'owner', languages: null, path: `/portal/invite/${invite.token}` });
    expect(Date.parse(invite.expires_at) - Date.now()).toBeGreaterThan(6 * 86_400_000);

    const browser = new PortalClient(t.app);
    const page = await browser.get(invite.path);
    expect(page.status).toBe(200);
    const joined = await browser.post(invite.path, { email: 'owner@acme.example', password: PASSWORD });
    expect(joined.status).toBe(303);
    const home = await browser.follow(joined);
    expect(home.status).toBe(200);
    expect(home.text).toContain('Mobile app');
    const [member] = await t.runtime.deps.sql<{ role: string }[]>`
      select m.role from memberships m join users u on u.id = m.user_id where u.email = 'owner@acme.example' and m.account_id = ${project.accountId}`;
    expect(member?.role).toBe('owner');
    // The owner can manage the account's members in the portal (the owner's page, not a 403).
    expect((await browser.get(`/portal/accounts/${project.accountId}/members`)).status).toBe(200);

    // Used once.
    expect((await new PortalClient(t.app).get(invite.path)).status).toBe(404);
    // The account's Activity names the operator as the inviter.
    const [event] = await t.runtime.deps.sql<{ actor_type: string }[]>`
      select actor_type from domain_events where account_id = ${project.accountId} and type = 'member.invited'`;
    expect(event?.actor_type).toBe('admin');
  });

  it('a translator limited to languages; the role and languages hold once joined', async () => {
    const project = await t.newProject('team');
    const res = await t.admin('POST', `/accounts/${project.accountId}/invitations`, { role: 'translator', languages: ['de', 'fr'] });
    expect(res.status).toBe(201);
    const invite = (await res.json()) as Invite;
    expect(invite).toMatchObject({ role: 'translator', languages: ['de', 'fr'] });
    const browser = new PortalClient(t.app);
    await browser.get(invite.path);
    expect((await browser.post(invite.path, { email: 'tx@acme.example', password: PASSWORD })).status).toBe(303);
    const [member] = await t.runtime.deps.sql<{ role: string; languages: string[] | null }[]>`
      select m.role, m.languages from memberships m join users u on u.id = m.user_id where u.email = 'tx@acme.example'`;
    expect(member).toEqual({ role: 'translator', languages: ['de', 'fr'] });
  });

  it('refuses what it cannot do: an unknown account, a bad role or field, no admin token; nothing is written', async () => {
    const project = await t.newProject('team');
    const count = async () => Number((await t.runtime.deps.sql<{ n: string }[]>`select count(*)::text as n from invites`)[0]!.n);
    const before = await count();
    const unknown = await t.admin('POST', '/accounts/00000000-0000-4000-8000-000000000000/invitations');
    expect(unknown.status).toBe(404);
    const badRole = await t.admin('POST', `/accounts/${project.accountId}/invitations`, { role: 'admin' });
    expect(badRole.status).toBe(422);
    expect(JSON.stringify(await badRole.json())).toContain('role must be owner, developer, reviewer or translator');
    const badField = await t.admin('POST', `/accounts/${project.accountId}/invitations`, { email: 'x@example.com' });
    expect(badField.status).toBe(422);
    const badLanguage = await t.admin('POST', `/accounts/${project.accountId}/invitations`, { role: 'reviewer', languages: ['not a code'] });
    expect(badLanguage.status).toBe(422);
    const noToken = await t.call(undefined, 'POST', `/admin/v1/accounts/${project.accountId}/invitations`, {});
    expect(noToken.status).toBe(401);
    // A project's API key is not the admin token either.
    const withApiKey = await t.call(project.apiKey, 'POST', `/admin/v1/accounts/${project.accountId}/invitations`, {});
    expect(withApiKey.status).toBe(401);
    expect(await count()).toBe(before);
  });
});
