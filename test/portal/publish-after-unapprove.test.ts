// What the portal publishes: the spec rebuilds the cache after portal approvals and bulk changes.
// A change that takes text away from apps (an approval taken back, a key deleted, a revert of an
// approved value to a draft) publishes as well, alone or through the bulk form alike.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { signedInMember } from './support/signed-in-member.ts';
import type { PortalClient } from './support/portal-client.ts';
import { rebuild } from '../support/cache-helpers.ts';
import { decode, formFields } from './support/form-fields.ts';

const t = useTestApp();
let p: TestProject;
let reviewer: PortalClient;
let dev: PortalClient;
let n = 0;
const unique = (prefix: string) => `${prefix}.${Date.now().toString(36)}${n++}`;

async function cached(key: string): Promise<string | undefined> {
  const res = await t.call(p.apiKey, 'GET', '/v1/cached/translations/de');
  return ((await res.json()) as { translations: Record<string, string> }).translations[key];
}

beforeAll(async () => {
  p = await t.newProject('team');
  expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
  reviewer = await signedInMember(t, p.accountId, 'reviewer');
  dev = await signedInMember(t, p.accountId, 'developer');
});

describe('a reviewer takes back an approval in the editor', () => {
  it('setting an approved value back to draft in its own form publishes, as the same through the bulk form does', async () => {
    const name = unique('unapprove');
    const keyId = ((await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: name })).json()) as { id: string }).id;
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Falsche Übersetzung', status: 'approved' })).status).toBe(200);
    await rebuild(t, p);
    expect(await cached(name)).toBe('Falsche Übersetzung');

    const page = await reviewer.get(`/portal/projects/${p.projectId}?lang=de`);
    const action = `/portal/projects/${p.projectId}/keys/${keyId}/values/de`;
    const res = await reviewer.post(action, { ...formFields(page.text, action), status: 'draft' });
    expect(res.status).toBe(303);
    await t.runtime.rebuilds!.idle();
    // The reviewer rejected the text: apps must stop getting it, as after a bulk "set back to draft".
    expect(await cached(name)).toBeUndefined();
  });

  it('deleting one key in the editor publishes, as deleting it through the bulk form does', async () => {
    const name = unique('delone');
    const keyId = ((await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: name })).json()) as { id: string }).id;
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Weg damit', status: 'approved' })).status).toBe(200);
    await rebuild(t, p);
    expect(await cached(name)).toBe('Weg damit');
    const res = await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}/delete`, { return_to: `/portal/projects/${p.projectId}` });
    expect(res.status).toBe(303);
    await t.runtime.rebuilds!.idle();
    expect(await cached(name)).toBeUndefined();
  });
});

describe('a revert in History', () => {
  it('reverting an approved value to an earlier draft publishes: apps stop getting the approved text', async () => {
    const name = unique('revert');
    const keyId = ((await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: name })).json()) as { id: string }).id;
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Entwurf' })).status).toBe(200);
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Freigegeben', status: 'approved' })).status).toBe(200);
    await rebuild(t, p);
    expect(await cached(name)).toBe('Freigegeben');

    const history = `/portal/projects/${p.projectId}/keys/${keyId}/values/de/history`;
    const page = await reviewer.get(history);
    const forms = [...page.text.matchAll(/<form[^>]*action="([^"]*\/revert)"[^>]*>([^]*?)<\/form>/g)];
    expect(forms).toHaveLength(1);
    const fields = Object.fromEntries([...forms[0]![2]!.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((m) => [m[1]!, decode(m[2]!)]));
    const res = await reviewer.post(forms[0]![1]!, fields);
    expect(res.status).toBe(303);
    expect(await (await t.call(p.apiKey, 'GET', `/v1/keys/${keyId}/translations/de`)).json()).toMatchObject({ value: 'Entwurf', status: 'draft' });
    await t.runtime.rebuilds!.idle();
    expect(await cached(name)).toBeUndefined();
  });
});

describe('a group renamed, a key or a group restored', () => {
  it('publish too: the renamed group is served under its new name, the restored keys again', async () => {
    const name = unique('ren');
    const group = unique('grp').replace('.', '_');
    const keyId = ((await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: name, group_name: group })).json()) as { id: string }).id;
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Umbenannt', status: 'approved' })).status).toBe(200);
    await rebuild(t, p);
    const renamed = `${group}_neu`;
    const res = await dev.post(`/portal/projects/${p.projectId}/groups/${encodeURIComponent(group)}/rename`, { new_name: renamed, return_to: `/portal/projects/${p.projectId}` });
    expect(res.status).toBe(303);
    await t.runtime.rebuilds!.idle();
    expect((await t.call(p.apiKey, 'GET', `/v1/cached/translations/de/${encodeURIComponent(renamed)}`)).status).toBe(200);

    // Deleted (published), then restored from the Trash: served again.
    expect((await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}/delete`, {})).status).toBe(303);
    await t.runtime.rebuilds!.idle();
    expect(await cached(name)).toBeUndefined();
    expect((await dev.post(`/portal/projects/${p.projectId}/trash/keys/${keyId}/restore`, {})).status).toBe(303);
    await t.runtime.rebuilds!.idle();
    expect(await cached(name)).toBe('Umbenannt');
  });
});
