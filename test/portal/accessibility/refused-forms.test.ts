// Accessibility (WCAG 2.1 AA), over the rendered HTML (app.fetch): a form the server refuses must tie its
// message to the field in error (aria-invalid, aria-describedby), as the editor's, the Languages and
// the Import forms already do (WCAG 3.3.1 Error Identification, 1.3.1 Info and Relationships); and a
// page's title must say what the page is (2.4.2 Page Titled).
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, useTestApp } from '../../support/test-app.ts';
import { PortalClient } from '../support/portal-client.ts';
import { signedInMember } from '../support/signed-in-member.ts';

const t = useTestApp();

/** The opening tag of the named field, and the text of the element its aria-describedby names. */
function field(html: string, tag: 'input' | 'textarea', name: string) {
  const open = new RegExp(`<${tag}[^>]*\\bname="${name}"[^>]*>`).exec(html)?.[0];
  if (!open) throw new Error(`no ${tag} named ${name}`);
  const invalid = /\baria-invalid="true"/.test(open);
  const ids = /\baria-describedby="([^"]+)"/.exec(open)?.[1]?.split(/\s+/) ?? [];
  const described = ids.map((id) => new RegExp(`<[^>]+\\bid="${id}"[^>]*>([\\s\\S]*?)</`).exec(html)?.[1] ?? '').join(' ');
  return { invalid, described };
}

describe('accessibility: refused forms and titles', () => {
  // First: no user exists yet, so the setup page is open.
  it('setup refused for a bad email and a short password marks those fields and describes them', async () => {
    const client = new PortalClient(t.app);
    await client.get('/portal/setup');
    const res = await client.post('/portal/setup', { admin_token: ADMIN_TOKEN, email: 'not-an-email', password: 'short', account_name: 'Acme', plan: 'unlimited' });
    expect(res.status).toBeGreaterThanOrEqual(400); // refused, the form shown again (precondition)
    expect(res.text).toContain('role="alert"');
    const email = field(res.text, 'input', 'email');
    const password = field(res.text, 'input', 'password');
    expect(email, 'email field').toMatchObject({ invalid: true, described: expect.stringMatching(/\S/) });
    expect(password, 'password field').toMatchObject({ invalid: true, described: expect.stringMatching(/\S/) });
  });

  it('a delivery key refused for its allowed origins marks that field and describes it', async () => {
    const p = await t.newProject('team');
    const owner = await signedInMember(t, p.accountId, 'owner');
    await owner.get(`/portal/projects/${p.projectId}/api-keys`);
    const res = await owner.post(`/portal/projects/${p.projectId}/api-keys`, { kind: 'delivery', name: 'web', allowed_origins: 'app.example.com/path', allowed_languages: '' });
    expect(res.status).toBe(422);
    expect(res.text).toMatch(/role="alert">an origin is a scheme/); // said at the top of the page too
    expect(field(res.text, 'textarea', 'allowed_origins')).toMatchObject({ invalid: true, described: expect.stringMatching(/origin/) });
  });

  it('an invitation refused for its languages marks that field and describes it', async () => {
    const p = await t.newProject('team');
    const owner = await signedInMember(t, p.accountId, 'owner');
    await owner.get(`/portal/accounts/${p.accountId}/members`);
    const res = await owner.post(`/portal/accounts/${p.accountId}/invites`, { role: 'translator', languages: 'de, !!bad' });
    expect(res.status).toBe(422);
    expect(res.text).toMatch(/role="alert">language code must look like/);
    // The invitation form's field (each member's row has a languages field of its own above it).
    const inviteForm = res.text.slice(res.text.indexOf('<h2>Invite someone</h2>'));
    expect(field(inviteForm, 'input', 'languages')).toMatchObject({ invalid: true, described: expect.stringMatching(/language code/) });
  });

  it('a 403 page is titled as its heading says, not "Something went wrong"', async () => {
    const p = await t.newProject('team');
    const translator = await signedInMember(t, p.accountId, 'translator');
    const res = await translator.get(`/portal/accounts/${p.accountId}/members`);
    expect(res.status).toBe(403);
    const h1 = /<h1>([^<]*)<\/h1>/.exec(res.text)![1]!;
    const title = /<title>([^<]*)<\/title>/.exec(res.text)![1]!;
    expect(h1).toBe('Not allowed');
    expect(title.startsWith(h1), `title "${title}", heading "${h1}"`).toBe(true);
  });
});
