// The portal's checks and writes agree (a review of 2026-11-29 found each of these broken): a
// language code in the address is checked as the code the write uses, a crafted return_to never
// turns a done write into a 500, and a revoke wins over a join still hashing its password.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { signedInMember } from './support/signed-in-member.ts';
import { PortalClient } from './support/portal-client.ts';

const t = useTestApp();
const PASSWORD = 'correct horse battery';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${counter++}`;

let p: TestProject;

async function newKey(): Promise<string> {
  const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: `k.${unique()}` });
  return ((await res.json()) as { id: string }).id;
}

async function value(keyId: string, language: string) {
  const [row] = await t.runtime.deps.sql<{ value: string; status: string }[]>`
    select value, status from translations where key_id = ${keyId} and language = ${language}`;
  return row;
}

beforeAll(async () => {
  p = await t.newProject('team');
  expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBeLessThan(300);
});

describe('roles', () => {
  it('a translator cannot change an approved value, whatever the case of the language code in the address', async () => {
    const keyId = await newKey();
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Freigegeben', status: 'approved' })).status).toBe(200);
    const translator = await signedInMember(t, p.accountId, 'translator');
    // The documented refusal, with the code as the editor writes it.
    expect((await translator.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de`, { value: 'Geändert', status: 'draft' })).status).toBe(403);
    // The same write with the code in another case is the same language to the use-case.
    const res = await translator.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/DE`, { value: 'Geändert', status: 'draft' });
    expect(await value(keyId, 'de')).toEqual({ value: 'Freigegeben', status: 'approved' });
    expect(res.status).toBe(403);
  });
});

describe('bad form input', () => {
  it('a value saved with a line break in return_to is written and answered with the fallback page, not a 500', async () => {
    const keyId = await newKey();
    const developer = await signedInMember(t, p.accountId, 'developer');
    const res = await developer.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de`, {
      value: 'Hallo',
      status: 'draft',
      return_to: `/portal/projects/${p.projectId}\nX: y`,
    });
    expect(await value(keyId, 'de')).toMatchObject({ value: 'Hallo' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/portal/projects/${p.projectId}#v-${keyId}-de`);
  });

  it('a key created with a line break in return_to is created and answered with a redirect, not a 500', async () => {
    const developer = await signedInMember(t, p.accountId, 'developer');
    const key = `k.${unique()}`;
    const res = await developer.post(`/portal/projects/${p.projectId}/keys`, { key, return_to: `/portal/projects/${p.projectId}\nX: y` });
    const [row] = await t.runtime.deps.sql`select 1 from translation_keys where project_id = ${p.projectId} and key = ${key}`;
    expect(row).toBeDefined();
    expect(res.status).toBeLessThan(500);
  });
});

describe('invitations', () => {
  it('an invitation revoked while someone is joining with it no longer lets them join (404)', async () => {
    const owner = await signedInMember(t, p.accountId, 'owner');
    const accountId = p.accountId;
    const invited = await owner.post(`/portal/accounts/${accountId}/invites`, { role: 'reviewer' });
    const path = new URL(/value="(http:\/\/localhost\/portal\/invite\/[^"]+)"/.exec(invited.text)![1]!).pathname;
    const [invite] = await t.runtime.deps.sql<{ id: string }[]>`select id from invites where account_id = ${accountId} and accepted_at is null`;

    const invitee = new PortalClient(t.app);
    expect((await invitee.get(path)).status).toBe(200);
    // The owner revokes the link while the server is still checking the invitee's form (its
    // password is hashed with scrypt, hundreds of milliseconds): here, right after the link was
    // found valid and before the joining is written.
    const counters = t.runtime.deps.counters;
    const get = counters.get;
    let revoked: Awaited<ReturnType<PortalClient['post']>> | undefined;
    counters.get = async function (key: string) {
      if (key.includes('late@example.com') && !revoked) revoked = await owner.post(`/portal/accounts/${accountId}/invites/${invite!.id}/revoke`);
      return get.call(this, key);
    };
    let joined;
    try {
      joined = await invitee.post(path, { email: 'late@example.com', password: PASSWORD });
    } finally {
      counters.get = get;
    }
    expect(revoked!.status).toBe(303);
    expect((await owner.follow(revoked!)).text).toContain('Invitation revoked: its link no longer works.');

    const members = await t.runtime.deps.sql`select 1 from memberships m join users u on u.id = m.user_id where m.account_id = ${accountId} and u.email = 'late@example.com'`;
    expect(members).toHaveLength(0);
    expect(joined.status).toBe(404);
  });
});
