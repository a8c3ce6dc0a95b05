// A form the portal refuses comes back with what was typed and chosen in it, and the refusal at the
// form: retyping only the wrong part must not send the defaults (a delivery key refused for its
// origin came back as a live key, an invitation for a reviewer as one for a translator). And input
// Postgres cannot read as a time (the trash's links and Restore forms) is a 4xx, never a 500.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { signedInMember } from './support/signed-in-member.ts';
import type { PortalClient } from './support/portal-client.ts';

const t = useTestApp();
let p: TestProject;
let owner: PortalClient;

beforeAll(async () => {
  p = await t.newProject('team');
  expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
  owner = await signedInMember(t, p.accountId, 'owner');
});

/** The first <form> whose action ends with `action`, as HTML. */
const formOf = (html: string, action: string) => {
  const at = html.indexOf(`action="${action}"`);
  expect(at, `no form posting to ${action}`).toBeGreaterThan(-1);
  return html.slice(html.lastIndexOf('<form', at), html.indexOf('</form>', at));
};

describe('refused forms keep what was typed', () => {
  it('API key: a delivery key refused for an origin comes back as a delivery key, its fields filled', async () => {
    const action = `/portal/projects/${p.projectId}/api-keys`;
    const res = await owner.post(action, { name: 'iOS app', kind: 'delivery', allowed_origins: 'app.example.com', allowed_languages: 'de' });
    expect(res.status).toBe(422);
    const form = formOf(res.text, action);
    expect(form).toMatch(/<input type="radio" name="kind" value="delivery" checked/);
    expect(form).not.toMatch(/value="live" checked/);
    expect(form).toMatch(/<input name="name" maxlength="200" value="iOS app"/);
    expect(form).toMatch(/<textarea name="allowed_origins"[^>]*>app\.example\.com<\/textarea>/);
    expect(form).toMatch(/name="allowed_languages" value="de"/);
    const [row] = await t.runtime.deps.sql<{ count: number }[]>`select count(*)::int as count from api_keys where project_id = ${p.projectId} and name = 'iOS app'`;
    expect(row!.count).toBe(0);
  });

  it('invitation: a reviewer invitation refused for a language comes back for a reviewer, the languages as typed', async () => {
    const action = `/portal/accounts/${p.accountId}/invites`;
    const res = await owner.post(action, { role: 'reviewer', languages: 'de, zz!' });
    expect(res.status).toBe(422);
    const form = formOf(res.text, action);
    expect(form).toMatch(/<option value="reviewer" selected/);
    expect(form).not.toMatch(/<option value="translator" selected/);
    expect(form).toContain('value="de, zz!"');
  });

  it("role change: the member's row shows the role and languages sent, and the refusal beside them", async () => {
    const member = await signedInMember(t, p.accountId, 'translator', { languages: ['de'] });
    const [newest] = await t.runtime.deps.sql<{ user_id: string }[]>`
      select user_id from memberships where account_id = ${p.accountId} and role = 'translator' order by created_at desc limit 1`;
    const memberId = newest!.user_id;
    expect(member).toBeDefined();
    const action = `/portal/accounts/${p.accountId}/members/${memberId}/role`;
    const res = await owner.post(action, { role: 'reviewer', languages: 'de, zz!' });
    expect(res.status).toBe(422);
    const form = formOf(res.text, action);
    expect(form).toMatch(/<option value="reviewer" selected/);
    expect(form).toContain('value="de, zz!"');
    expect(form).toMatch(new RegExp(`aria-describedby="role-error-${memberId}"`));
    expect(form).toMatch(/class="field-error"[^>]*>Not saved: /);
    const [stored] = await t.runtime.deps.sql<{ role: string }[]>`select role from memberships where user_id = ${memberId} and account_id = ${p.accountId}`;
    expect(stored!.role).toBe('translator');
  });

  it('new project: a refused name is said at the form on the Projects page, the name kept', async () => {
    const action = `/portal/accounts/${p.accountId}/projects`;
    const res = await owner.post(action, { name: '   ' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('<h1>Projects</h1>');
    const form = formOf(res.text, action);
    expect(form).toMatch(/aria-invalid="true"/);
    expect(form).toMatch(/class="field-error"[^>]*>Not created: /);
  });

  it('add language: a refused code stays in its field, the refusal tied to it', async () => {
    const action = `/portal/projects/${p.projectId}/languages`;
    const res = await owner.post(action, { code: 'pt_BR!' });
    expect(res.status).toBe(422);
    const form = formOf(res.text, action);
    expect(form).toContain('value="pt_BR!"');
    expect(form).toContain('aria-describedby="add-language-error"');
  });
});

describe('times Postgres cannot read are a 4xx, never a 500', () => {
  it("a trash page link with an impossible 'before' shows the newest page", async () => {
    for (const before of ['2024-13-45T99:00:00.000000Z', '2024-02-30T00:00:00.000000Z', '0000-01-01T00:00:00.000000Z']) {
      const res = await owner.get(`/portal/projects/${p.projectId}/trash?before=${encodeURIComponent(before)}&key=x`);
      expect(res.status, before).toBe(200);
    }
  });

  it('a group Restore naming an impossible delete time restores nothing, with a 422', async () => {
    const res = await owner.post(`/portal/projects/${p.projectId}/trash/groups/home/restore`, { deleted_at: '2024-02-30T00:00:00.000000Z' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('Not restored:');
  });
});
