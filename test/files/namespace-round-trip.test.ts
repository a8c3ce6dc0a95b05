// A namespace file (`namespace=G`: an i18next namespace, `tms push` with `{group}` in a path) reads
// back as it was exported. The export writes a key of group G without its `G.` prefix, and a key of
// G that has none (`title`, made in the portal or the API) as it is; the import is its inverse: it
// once made `home.title` next to `title` (a duplicate, a unit charged, and the next pull refused),
// and wrote onto a `home.title` of another group, which the namespace's export then lacked.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../support/test-app.ts';
import { body, project, type Project } from '../translations/helpers.ts';

const t = useTestApp();

function importFile(t: TestApp, p: Project, language: string, file: string, query = '') {
  return t.app.request(`/v1/import/${language}${query}`, { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/octet-stream' }, body: file });
}
const exportNamespace = async (p: Project, group: string) =>
  (await t.app.request(`/v1/export/de?format=json&namespace=${group}`, { headers: { 'X-API-Key': p.apiKey } })).text();

describe('namespace imports are the inverse of namespace exports', () => {
  it('pushing back an unchanged namespace file just pulled changes nothing, for keys with and without the group prefix', async () => {
    const p = await project(t, ['de']);
    await p.put(await p.key('title', 'home'), 'de', 'Willkommen', 'approved');
    await p.put(await p.key('home.body', 'home'), 'de', 'Text', 'approved');
    const file = await exportNamespace(p, 'home');
    expect(JSON.parse(file)).toEqual({ title: 'Willkommen', body: 'Text' });
    const res = await importFile(t, p, 'de', file, '?format=json&namespace=home&status=approved');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await body(res)).toMatchObject({ keys_created: 0, values_unchanged: 2, translation_units: 0 });
    // A changed text goes to the key the file came from; a new name is created with the prefix.
    const edited = await importFile(t, p, 'de', JSON.stringify({ title: 'Hallo', body: 'Text', more: 'Mehr' }), '?format=json&namespace=home&status=approved');
    expect(await body(edited)).toMatchObject({ keys_created: 1, values_updated: 1, values_unchanged: 1 });
    const keys = (await body(await p.get('/v1/keys'))).keys.map((k: { key: string; group_name: string }) => `${k.group_name}:${k.key}`).sort();
    expect(keys).toEqual(['home:home.body', 'home:home.more', 'home:title']);
    expect(JSON.parse(await exportNamespace(p, 'home'))).toEqual({ title: 'Hallo', body: 'Text', more: 'Mehr' });
  });

  it("a namespace file naming a key of another group is refused (422 naming it), nothing written", async () => {
    const p = await project(t, ['de']);
    await p.key('home.title', 'other');
    const res = await importFile(t, p, 'de', JSON.stringify({ title: 'Willkommen', fresh: 'Neu' }), '?format=json&namespace=home&status=approved');
    expect(res.status).toBe(422);
    expect((await body(res)).detail).toEqual([{ loc: ['body', 'title'], msg: expect.stringContaining("'home.title' is a key of group 'other', not of 'home'"), type: 'value' }]);
    expect((await body(await p.get('/v1/keys'))).keys.map((k: { key: string }) => k.key)).toEqual(['home.title']);
  });
  it('two entries of a namespace file naming one key (`title` and `home.title`, the group\'s key home.title) are refused (422 naming both), not written twice (a 500) or charged twice', async () => {
    const p = await project(t, ['de']);
    await p.put(await p.key('home.title', 'home'), 'de', 'Alt', 'approved');
    for (const dry of ['&dry_run=true', '']) {
      const res = await importFile(t, p, 'de', JSON.stringify({ title: 'A', 'home.title': 'B' }), `?format=json&namespace=home${dry}`);
      expect(res.status, await res.clone().text()).toBe(422);
      expect((await body(res)).detail).toEqual([{ loc: ['body', 'home.title'], msg: "'home.title' and 'title' both name the key 'home.title' in namespace 'home': keep one of them", type: 'entry_invalid' }]);
    }
    const all = (await body(await p.get('/v1/translations/de?status=all'))).translations;
    expect(all).toEqual({ 'home.title': { value: 'Alt', status: 'approved', group: 'home' } });
  });
});
