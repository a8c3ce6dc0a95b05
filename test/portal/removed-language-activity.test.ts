// DELETE /v1/languages/{code} "permanently deletes" the language's values (spec 3, 4.3), and the
// value's History follows that (core/portal/activity.ts leaves out every event up to the language's
// latest removal: "listing old texts invites reviving them"). The project's Activity page did not:
// it kept showing every removed value's text, before and after, to every member (project.view), for
// as long as the installation runs (domain_events is never pruned). It now says the text was deleted.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { signedInMember } from '../portal/support/signed-in-member.ts';

const t = useTestApp();

describe('a removed language', () => {
  it("leaves none of its values' texts readable on the portal (History and Activity alike)", async () => {
    const p = await t.newProject('team');
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.secret', group_name: 'home' });
    const keyId = ((await created.json()) as { id: string }).id;
    const secret = 'Zugangscode-7731-nicht-weitergeben';
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: secret, status: 'approved' })).status).toBe(200);

    const removed = await t.call(p.apiKey, 'DELETE', '/v1/languages/de');
    expect(await removed.json()).toMatchObject({ translations_deleted: 1, deleted: true });

    const member = await signedInMember(t, p.accountId, 'translator');
    // The value's History honours the removal (its events are left out)...
    const history = await member.get(`/portal/projects/${p.projectId}/keys/${keyId}/values/de/history`);
    expect(history.text).not.toContain(secret);
    // ...and so does the project's Activity page: the write is listed, its text is not.
    const activity = await member.get(`/portal/projects/${p.projectId}/activity`);
    expect(activity.status).toBe(200);
    expect(activity.text).not.toContain(secret);
    expect(activity.text).toContain('text deleted when the language was removed');

    // A value written after the language is added back is shown as ever.
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Neu-und-sichtbar', status: 'draft' })).status).toBe(200);
    const again = await member.get(`/portal/projects/${p.projectId}/activity`);
    expect(again.text).toContain('Neu-und-sichtbar');
    expect(again.text).not.toContain(secret);
  });
});
