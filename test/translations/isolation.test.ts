// Every endpoint of this feature acts on the caller's project only, even when another project uses
// the same key names, group names and languages.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, expectNotFound, project, type Project } from './helpers.ts';

const t = useTestApp();

let a: Project;
let b: Project;
let aTitle: string;
let bTitle: string;
beforeAll(async () => {
  a = await project(t, ['de', 'fr']);
  b = await project(t, ['de']);
  aTitle = await a.key('home.title', 'home');
  const aOnly = await a.key('home.only_a', 'home');
  bTitle = await b.key('home.title', 'home');
  await a.put(aTitle, 'de', 'A-Titel', 'approved');
  await a.put(aOnly, 'de', 'nur A', 'approved');
  await a.put(aTitle, 'fr', 'A-Titre', 'approved');
  await b.put(bTitle, 'de', 'B-Titel', 'draft');
});

describe('cross-project isolation', () => {
  it("PUT to another project's key is a 404 and changes nothing", async () => {
    const res = await t.call(b.apiKey, 'PUT', `/v1/keys/${aTitle}/translations/de`, { value: 'hijack', status: 'approved' });
    expect(await expectNotFound(res)).toBe('Key not found');
    expect((await body(await a.get('/v1/translations/de/home/home.title'))).value).toBe('A-Titel');
  });

  it("PUT in a language only the other project registered is a 404", async () => {
    expect(await expectNotFound(await t.call(b.apiKey, 'PUT', `/v1/keys/${bTitle}/translations/fr`, { value: 'x' }))).toContain("'fr'");
  });

  it("DELETE of another project's value is a 404 and deletes nothing", async () => {
    expect(await expectNotFound(await t.call(b.apiKey, 'DELETE', `/v1/keys/${aTitle}/translations/de`))).toBe('Key not found');
    expect((await a.get('/v1/translations/de/home/home.title')).status).toBe(200);
  });

  it('the language read shows only the caller\'s values', async () => {
    expect(await body(await a.get('/v1/translations/de?status=all'))).toMatchObject({
      project_id: a.projectId,
      count: 2,
      translations: { 'home.title': { value: 'A-Titel', status: 'approved', group: 'home' }, 'home.only_a': { value: 'nur A', status: 'approved', group: 'home' } },
    });
    expect(await body(await b.get('/v1/translations/de?status=all'))).toEqual({
      project_id: b.projectId,
      language: 'de',
      status_filter: 'all',
      count: 1,
      translations: { 'home.title': { value: 'B-Titel', status: 'draft', group: 'home' } },
    });
    // B has drafts only: approved is empty for B although A has approved values.
    expect(await body(await b.get('/v1/translations/de'))).toMatchObject({ count: 0, translations: {} });
    // A language with values in A only does not exist for B.
    expect((await b.get('/v1/translations/fr?status=all')).status).toBe(404);
  });

  it("the group read shows only the caller's values", async () => {
    expect((await body(await b.get('/v1/translations/de/home?status=all'))).translations).toEqual({ 'home.title': { value: 'B-Titel', status: 'draft' } });
    expect((await b.get('/v1/translations/de/home')).status).toBe(404);
    expect((await b.get('/v1/translations/fr/home?status=all')).status).toBe(404);
    expect((await body(await a.get('/v1/translations/de/home'))).count).toBe(2);
  });

  it("the key read shows only the caller's value", async () => {
    expect((await body(await b.get('/v1/translations/de/home/home.title?status=all'))).value).toBe('B-Titel');
    expect((await body(await a.get('/v1/translations/de/home/home.title?status=all'))).value).toBe('A-Titel');
    expect((await b.get('/v1/translations/de/home/home.only_a?status=all')).status).toBe(404);
    expect((await b.get('/v1/translations/fr/home/home.title?status=all')).status).toBe(404);
  });

  it("the manifest lists only the caller's languages and counts", async () => {
    expect(await body(await a.get('/v1/manifest'))).toEqual({
      project_id: a.projectId,
      languages: [
        { code: 'de', name: 'German', iso: 'de', approved_count: 2 },
        { code: 'fr', name: 'French', iso: 'fr', approved_count: 1 },
      ],
    });
    expect(await body(await b.get('/v1/manifest'))).toEqual({
      project_id: b.projectId,
      languages: [{ code: 'de', name: 'German', iso: 'de', approved_count: 0 }],
    });
  });

  it("deletes in one project leave the other's values served", async () => {
    expect((await t.call(b.apiKey, 'DELETE', '/v1/languages/de')).status).toBe(200);
    expect((await t.call(b.apiKey, 'DELETE', '/v1/groups/home')).status).toBe(204);
    expect((await body(await a.get('/v1/translations/de'))).count).toBe(2);
    expect((await body(await a.get('/v1/manifest'))).languages).toHaveLength(2);
    expect((await body(await b.get('/v1/manifest'))).languages).toEqual([]);
  });
});
