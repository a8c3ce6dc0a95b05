// An owner who is removed from an account, or demoted, takes the pending invitation links they made
// with them: a kept link let whoever held it (the removed owner, under a second address) join the
// account with the role it named, owner included. Another owner's links stay.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { PortalClient } from '../portal/support/portal-client.ts';
import { signedInMember } from '../portal/support/signed-in-member.ts';

const t = useTestApp();
const PASSWORD = 'correct horse battery';

async function userIdOf(accountId: string, client: PortalClient): Promise<string> {
  const token = client.cookies.get('tms_session')!;
  const { sha256Hex } = await import('../../core/users/sessions.ts');
  const [row] = await t.runtime.deps.sql<{ user_id: string }[]>`select user_id from user_sessions where id_hash = ${sha256Hex(token)}`;
  return row!.user_id;
}

async function ownerInviteLink(owner: PortalClient, accountId: string, role = 'owner'): Promise<string> {
  await owner.get(`/portal/accounts/${accountId}/members`);
  const invited = await owner.post(`/portal/accounts/${accountId}/invites`, { role });
  expect(invited.status).toBe(201);
  return new URL(/value="(http:\/\/localhost\/portal\/invite\/[^"]+)"/.exec(invited.text)![1]!).pathname;
}

describe('invitations of a member who no longer may invite', () => {
  it('an owner removed from the account: the owner invitation they made no longer works', async () => {
    const p = await t.newProject('team');
    const leaving = await signedInMember(t, p.accountId, 'owner', { emailPrefix: 'leaving' });
    const staying = await signedInMember(t, p.accountId, 'owner', { emailPrefix: 'staying' });
    const link = await ownerInviteLink(leaving, p.accountId);

    const leavingId = await userIdOf(p.accountId, leaving);
    await staying.get(`/portal/accounts/${p.accountId}/members`);
    const removed = await staying.post(`/portal/accounts/${p.accountId}/members/${leavingId}/remove`, {});
    expect(removed.status).toBe(303);
    expect((await leaving.get(`/portal/projects/${p.projectId}`)).status).toBe(404);

    // The removed owner, under another address, opens the link they kept.
    const back = new PortalClient(t.app);
    const opened = await back.get(link);
    const joined = opened.status === 200 ? await back.post(link, { email: 'second-address@example.com', password: PASSWORD }) : undefined;
    const role = await t.runtime.deps.sql<{ role: string }[]>`
      select m.role from memberships m join users u on u.id = m.user_id where u.email = 'second-address@example.com' and m.account_id = ${p.accountId}`;
    expect({ linkStatus: opened.status, joined: joined?.status, membership: role }).toEqual({ linkStatus: 404, joined: undefined, membership: [] });
    // The account's activity says so, as a revocation by the owner who removed them.
    const events = await t.runtime.deps.sql<{ actor_id: string }[]>`
      select actor_id from domain_events where account_id = ${p.accountId} and type = 'member.invite_revoked'`;
    expect(events.map((e) => e.actor_id)).toEqual([await userIdOf(p.accountId, staying)]);
  });

  it('an owner demoted to translator: the owner invitation they made no longer works', async () => {
    const p = await t.newProject('team');
    const demoted = await signedInMember(t, p.accountId, 'owner', { emailPrefix: 'demoted' });
    const other = await signedInMember(t, p.accountId, 'owner', { emailPrefix: 'other' });
    const link = await ownerInviteLink(demoted, p.accountId);
    const othersLink = await ownerInviteLink(other, p.accountId, 'translator');

    const demotedId = await userIdOf(p.accountId, demoted);
    await other.get(`/portal/accounts/${p.accountId}/members`);
    expect((await other.post(`/portal/accounts/${p.accountId}/members/${demotedId}/role`, { role: 'translator' })).status).toBe(303);

    const opened = await new PortalClient(t.app).get(link);
    expect(opened.status).toBe(404);
    expect((await new PortalClient(t.app).get(othersLink)).status).toBe(200);
  });

  it('a change that keeps the right to invite (owner to owner) keeps their links', async () => {
    const p = await t.newProject('team');
    const first = await signedInMember(t, p.accountId, 'owner', { emailPrefix: 'first' });
    const second = await signedInMember(t, p.accountId, 'owner', { emailPrefix: 'second' });
    const link = await ownerInviteLink(first, p.accountId, 'reviewer');
    await second.get(`/portal/accounts/${p.accountId}/members`);
    expect((await second.post(`/portal/accounts/${p.accountId}/members/${await userIdOf(p.accountId, first)}/role`, { role: 'owner' })).status).toBe(303);
    expect((await new PortalClient(t.app).get(link)).status).toBe(200);
  });
});
