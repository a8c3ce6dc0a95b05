// A tag across the project in the portal (docs/portal.md, "Tags"): filtered by a tag, owners and
// developers see "Rename the tag … to" and "Delete tag (N keys)" beside the filter; renaming leads
// to the keys under the new name, deleting back to the keys without the filter with what was done.
// A bad name is said at the field, nothing written; translators see neither form and get a 403.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient } from './support/portal-client.ts';
import { signedInMember } from './support/signed-in-member.ts';
import { decode, formFields } from './support/form-fields.ts';

const t = useTestApp();
let p: TestProject;
let dev: PortalClient;
let translator: PortalClient;

async function newKey(key: string, tags: string[]): Promise<string> {
  const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key, tags });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}
const tagsByKey = async () =>
  Object.fromEntries(
    (await t.runtime.deps.sql<{ key: string; tags: string[] }[]>`select key, tags from translation_keys where project_id = ${p.projectId} order by key`).map((r) => [
      r.key,
      r.tags,
    ]),
  );
const editor = (query: string) => `/portal/projects/${p.projectId}?${query}`;
const renameAction = (tag: string) => `/portal/projects/${p.projectId}/tags/${encodeURIComponent(tag)}/rename`;
const deleteAction = (tag: string) => `/portal/projects/${p.projectId}/tags/${encodeURIComponent(tag)}/delete`;

beforeAll(async () => {
  p = await t.newProject('team');
  expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
  dev = await signedInMember(t, p.accountId, 'developer');
  translator = await signedInMember(t, p.accountId, 'translator');
});

describe('a tag across the project in the editor', () => {
  it('renames the filtered tag on every key and shows the keys under the new name', async () => {
    await newKey('r.a', ['mobil']);
    await newKey('r.b', ['mobil', 'mobile']);
    const page = await dev.get(editor('lang=de&tag=mobil'));
    expect(page.status).toBe(200);
    expect(decode(page.text)).toContain('Rename the tag mobil to');
    expect(page.text).toContain('Delete tag (2 keys)');
    const fields = formFields(page.text, renameAction('mobil'));
    expect(fields.name).toBe('mobil');
    const res = await dev.post(renameAction('mobil'), { ...fields, name: 'mobile' });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/portal/projects/${p.projectId}?lang=de&tag=mobile`);
    expect(await tagsByKey()).toMatchObject({ 'r.a': ['mobile'], 'r.b': ['mobile'] });
  });

  it('deletes the filtered tag from every key, keeping the keys, and says so', async () => {
    await newKey('d.a', ['old', 'web']);
    await newKey('d.b', ['old']);
    const page = await dev.get(editor('lang=de&tag=old'));
    const form = formFields(page.text, deleteAction('old'));
    expect(page.text).toContain('data-confirm="Take the tag old off its 2 keys? No key is deleted."');
    const res = await dev.post(deleteAction('old'), form);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/portal/projects/${p.projectId}?lang=de&done=tagdeleted-2`);
    const after = await dev.get(res.location!);
    expect(after.text).toContain('Deleted the tag: taken off 2 keys (no key was deleted).');
    expect(await tagsByKey()).toMatchObject({ 'd.a': ['web'], 'd.b': [] });
  });

  it('refuses a bad or unchanged name at the field, the typed text kept and nothing written', async () => {
    await newKey('b.a', ['keep']);
    const fields = formFields((await dev.get(editor('lang=de&tag=keep'))).text, renameAction('keep'));
    for (const name of ['a,b', 'x'.repeat(101), 'keep']) {
      const res = await dev.post(renameAction('keep'), { ...fields, name });
      expect(res.status, name).toBe(422);
      expect(res.text, name).toMatch(/<input name="name"[^>]*aria-invalid="true"/);
      expect(decode(res.text), name).toContain(`value="${name}"`);
    }
    expect(await tagsByKey()).toMatchObject({ 'b.a': ['keep'] });
  });

  it('a tag no key has any more (deleted in another tab) is a 404 page, nothing written', async () => {
    await newKey('g.a', ['gone']);
    const fields = formFields((await dev.get(editor('lang=de&tag=gone'))).text, renameAction('gone'));
    expect((await t.call(p.apiKey, 'DELETE', '/v1/keys/tags/gone')).status).toBe(200);
    expect((await dev.post(renameAction('gone'), { ...fields, name: 'new' })).status).toBe(404);
    expect((await dev.post(deleteAction('gone'), fields)).status).toBe(404);
  });

  it('is for owners and developers: a translator sees neither form and is refused', async () => {
    await newKey('t.a', ['team']);
    const page = await translator.get(editor('lang=de&tag=team'));
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Rename the tag');
    expect(page.text).not.toContain('Delete tag');
    expect((await translator.post(renameAction('team'), { name: 'mine' })).status).toBe(403);
    expect((await translator.post(deleteAction('team'), {})).status).toBe(403);
    expect(await tagsByKey()).toMatchObject({ 't.a': ['team'] });
  });
});
