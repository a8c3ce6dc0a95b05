// Outdated values (core/translations/outdated.ts, migration 028): a translation is outdated when its
// key's source text changed after it was written or marked up to date. Through the API as a
// developer and a reviewer use it: the value's `outdated`, the listing's ?outdated= filter, bulk
// actions over that filter, imports, and POST .../up-to-date.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, project, type Project } from './helpers.ts';

const t = useTestApp();

/** A project (source en) with de and fr, one key whose three values were written in that order. */
async function translated(): Promise<{ p: Project; keyId: string }> {
  const p = await project(t, ['en', 'de', 'fr']);
  const keyId = await p.key('home.title', 'home');
  await p.put(keyId, 'en', 'Welcome', 'approved');
  await p.put(keyId, 'de', 'Willkommen', 'approved');
  await p.put(keyId, 'fr', 'Bienvenue', 'review');
  return { p, keyId };
}

const value = async (p: Project, keyId: string, language: string) => body(await p.get(`/v1/keys/${keyId}/translations/${language}`));
const listed = async (p: Project, query: string) => (await body(await p.get(`/v1/keys?${query}`))).keys.map((k: { key: string }) => k.key);
const markUpToDate = (p: Project, keyId: string, language: string, headers: Record<string, string> = {}) =>
  t.call(p.apiKey, 'POST', `/v1/keys/${keyId}/translations/${language}/up-to-date`, undefined, headers);

describe('outdated values', () => {
  it('a new source text marks the translations written before it outdated, in the value and the listing; never the source itself', async () => {
    const { p, keyId } = await translated();
    expect((await value(p, keyId, 'de')).outdated).toBe(false);
    expect(await listed(p, 'outdated=de')).toEqual([]);

    await p.put(keyId, 'en', 'Welcome!', 'approved');
    expect((await value(p, keyId, 'de')).outdated).toBe(true);
    expect((await value(p, keyId, 'fr')).outdated).toBe(true);
    expect((await value(p, keyId, 'en')).outdated).toBe(false);
    expect(await listed(p, 'outdated=de')).toEqual(['home.title']);
    expect(await listed(p, 'outdated=en')).toEqual([]);
    // Combined with the other filters (AND), and in cursor pages.
    expect(await listed(p, 'outdated=fr&status=review&language=fr')).toEqual(['home.title']);
    expect(await listed(p, 'outdated=fr&status=approved&language=fr')).toEqual([]);
    expect(await listed(p, 'outdated=de&limit=1')).toEqual(['home.title']);
    // An outdated approved value is still approved, and still served.
    expect(await body(await p.get('/v1/translations/de/home/home.title'))).toMatchObject({ value: 'Willkommen', status: 'approved' });
  });

  it('only a new text clears the mark: the same text again or a status change keep it', async () => {
    const { p, keyId } = await translated();
    await p.put(keyId, 'en', 'Welcome back');
    await p.put(keyId, 'de', 'Willkommen', 'approved');
    await p.put(keyId, 'fr', 'Bienvenue', 'approved');
    expect((await value(p, keyId, 'de')).outdated).toBe(true);
    expect((await value(p, keyId, 'fr')).outdated).toBe(true);
    await p.put(keyId, 'de', 'Willkommen zurück', 'approved');
    expect((await value(p, keyId, 'de')).outdated).toBe(false);
    expect(await listed(p, 'outdated=de')).toEqual([]);
    // The source's status alone changes nothing either.
    await p.put(keyId, 'en', 'Welcome back', 'approved');
    expect((await value(p, keyId, 'de')).outdated).toBe(false);
  });

  it('a key without a source value has nothing to be outdated against; a source deleted and written again outdates', async () => {
    const p = await project(t, ['en', 'de']);
    const keyId = await p.key('only.german');
    await p.put(keyId, 'de', 'Nur Deutsch');
    expect((await value(p, keyId, 'de')).outdated).toBe(false);
    await p.put(keyId, 'en', 'English only');
    expect((await value(p, keyId, 'de')).outdated).toBe(true);
    await p.put(keyId, 'de', 'Nur Deutsch, neu');
    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${keyId}/translations/en`)).status).toBe(204);
    expect((await value(p, keyId, 'de')).outdated).toBe(false);
  });

  it('imports: an unchanged source file outdates nothing, a changed source text outdates its translations', async () => {
    const { p, keyId } = await translated();
    const push = (language: string, file: unknown) =>
      t.app.request(`/v1/import/${language}?format=i18next&status=approved`, { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify(file) });
    expect((await push('en', { home: { title: 'Welcome' } })).status).toBe(200);
    expect((await value(p, keyId, 'de')).outdated).toBe(false);
    expect((await push('en', { home: { title: 'Welcome home' } })).status).toBe(200);
    expect((await value(p, keyId, 'de')).outdated).toBe(true);
    // The translation pushed again unchanged (a CI sync) keeps the mark; a new text clears it.
    expect((await push('de', { home: { title: 'Willkommen' } })).status).toBe(200);
    expect((await value(p, keyId, 'de')).outdated).toBe(true);
    expect((await push('de', { home: { title: 'Willkommen daheim' } })).status).toBe(200);
    expect((await value(p, keyId, 'de')).outdated).toBe(false);
  });
});

describe('POST /v1/keys/{key_id}/translations/{language}/up-to-date', () => {
  it('clears the mark, text, status and version as they were; again is the same answer', async () => {
    const { p, keyId } = await translated();
    await p.put(keyId, 'en', 'Welcome!', 'approved');
    const before = await p.get(`/v1/keys/${keyId}/translations/de`);
    const read = await body(before);
    const res = await markUpToDate(p, keyId, 'de', { 'If-Match': before.headers.get('etag')! });
    expect(res.status, await res.clone().text()).toBe(200);
    // The read's ETag said outdated; the answer's is the version alone (the version did not move).
    expect(before.headers.get('etag')).toBe(`"${read.version}-outdated"`);
    expect(res.headers.get('etag')).toBe(`"${read.version}"`);
    expect(await body(res)).toEqual({ ...read, outdated: false });
    expect(await value(p, keyId, 'de')).toEqual({ ...read, outdated: false });
    expect(await listed(p, 'outdated=de')).toEqual([]);
    // fr was not marked.
    expect((await value(p, keyId, 'fr')).outdated).toBe(true);
    const again = await markUpToDate(p, keyId, 'de');
    expect(again.status).toBe(200);
    expect(await body(again)).toEqual({ ...read, outdated: false });
    // And the next source change outdates it again.
    await p.put(keyId, 'en', 'Welcome!!', 'approved');
    expect((await value(p, keyId, 'de')).outdated).toBe(true);
  });

  it('If-Match naming an older version is a 412 and nothing is marked', async () => {
    const { p, keyId } = await translated();
    const old = (await p.get(`/v1/keys/${keyId}/translations/de`)).headers.get('etag')!;
    await p.put(keyId, 'en', 'Welcome!', 'approved');
    await p.put(keyId, 'de', 'Willkommen', 'review');
    const res = await markUpToDate(p, keyId, 'de', { 'If-Match': old });
    expect(res.status).toBe(412);
    expect(JSON.stringify(await body(res))).toMatch(/changed since you read it/);
    expect((await value(p, keyId, 'de')).outdated).toBe(true);
  });

  it('refuses the source language (422), a missing value or key (404), another project\'s key (404), a body (4xx)', async () => {
    const { p, keyId } = await translated();
    const source = await markUpToDate(p, keyId, 'en');
    expect(source.status).toBe(422);
    expect(JSON.stringify(await body(source))).toMatch(/source language/);
    const q = await p.key('no.values');
    expect((await markUpToDate(p, q, 'de')).status).toBe(404);
    expect((await markUpToDate(p, '00000000-0000-4000-8000-000000000000', 'de')).status).toBe(404);
    expect((await markUpToDate(p, keyId, 'd!')).status).toBe(422);
    expect((await markUpToDate(p, keyId, 'it')).status).toBe(404);
    const other = await project(t, ['en', 'de']);
    expect((await markUpToDate(other, keyId, 'de')).status).toBe(404);
    const withBody = await t.call(p.apiKey, 'POST', `/v1/keys/${keyId}/translations/de/up-to-date`, { outdated: false });
    expect(withBody.status).toBeGreaterThanOrEqual(400);
    expect(withBody.status).toBeLessThan(500);
  });

  it('is recorded for Activity, and changes nothing served: no rebuild request, no content change', async () => {
    const { p, keyId } = await translated();
    await p.put(keyId, 'en', 'Welcome!', 'approved');
    const sql = t.runtime.deps.sql;
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from domain_events where project_id = ${p.projectId}`;
    const before = row!.n;
    expect((await markUpToDate(p, keyId, 'de')).status).toBe(200);
    const events = await sql<{ type: string; entity_id: string; after: { value: string } }[]>`
      select type, entity_id, after from domain_events where project_id = ${p.projectId} order by id offset ${before}`;
    expect(events.map((e) => [e.type, e.entity_id, e.after.value])).toEqual([['value.marked_up_to_date', `${keyId}/de`, 'Willkommen']]);
  });

  it('bulk actions take the filter: every outdated German value back to review, the others as they were', async () => {
    const { p, keyId } = await translated();
    const other = await p.key('home.subtitle', 'home');
    await p.put(other, 'en', 'Hello');
    await p.put(other, 'de', 'Hallo', 'approved');
    await p.put(keyId, 'en', 'Welcome!', 'approved');
    const res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { filter: { outdated: 'de' }, languages: ['de'], status: 'review' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await value(p, keyId, 'de')).status).toBe('review');
    expect(await value(p, other, 'de')).toMatchObject({ status: 'approved', outdated: false });
  });
});
