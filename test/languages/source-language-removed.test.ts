// The project's source language (translation memory, machine translation and quality checks
// compare with it) is always one of its languages once it has any. Removing it left
// projects.source_language naming a language the project no longer had, a state PATCH refuses to
// set: memory and checks stopped without a word, and the portal's Quality form (which posts the
// source as shown) could not be saved at all. The first remaining language now takes its place;
// and a form that sends the source as it is (a new project's English, before any language) saves.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { signedInMember } from '../portal/support/signed-in-member.ts';

const t = useTestApp();

const settings = async (projectId: string) =>
  (await (await t.admin('GET', `/projects/${projectId}`)).json()) as { source_language: string; quality_blocking: string[] };

describe('removing the source language', () => {
  it('gives the source to the first remaining language; the memory follows it', async () => {
    const p = await t.newProject('team');
    for (const code of ['en', 'fr', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.title' });
    const keyId = ((await created.json()) as { id: string }).id;
    for (const [language, value] of [['en', 'Welcome'], ['fr', 'Bienvenue'], ['de', 'Willkommen']]) {
      expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/${language}`, { value, status: 'approved' })).status).toBe(200);
    }
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/en')).status).toBe(200);
    expect((await settings(p.projectId)).source_language).toBe('fr');
    const memory = await t.runtime.deps.sql`select language, value from memory_sources where project_id = ${p.projectId}`;
    expect(memory.map((m) => ({ ...m }))).toEqual([{ language: 'fr', value: 'Bienvenue' }]);
    const [event] = await t.runtime.deps.sql<{ before: unknown; after: unknown }[]>`
      select before, after from domain_events where project_id = ${p.projectId} and type = 'project.updated' order by id desc limit 1`;
    expect(event).toMatchObject({ before: { source_language: 'en' }, after: { source_language: 'fr' } });
    // Another language's removal leaves the source alone.
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/de')).status).toBe(200);
    expect((await settings(p.projectId)).source_language).toBe('fr');
    // The last language removed: nothing to give it to; the next language added takes it.
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/fr')).status).toBe(200);
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'it' })).status).toBe(201);
    expect((await settings(p.projectId)).source_language).toBe('it');
  });
});

describe("the portal's Quality form, sent as shown", () => {
  it('saves on a new project that has no language yet (its source, English, is sent unchanged)', async () => {
    const p = await t.newProject('team');
    const owner = await signedInMember(t, p.accountId, 'owner');
    const page = await owner.get(`/portal/projects/${p.projectId}/languages`);
    const selected = /<select name="source_language"[^>]*>[^]*?<option value="([^"]+)" selected="">/.exec(page.text)?.[1];
    expect(selected).toBe('en');
    const saved = await owner.post(`/portal/projects/${p.projectId}/quality`, { source_language: selected!, quality_blocking: 'placeholders' });
    expect(saved.status, saved.text.slice(0, 300)).toBe(303);
    expect(await settings(p.projectId)).toMatchObject({ source_language: 'en', quality_blocking: ['placeholders'] });
    // A change to a language the project does not have is still refused.
    expect((await t.admin('PATCH', `/projects/${p.projectId}`, { source_language: 'de' })).status).toBe(422);
  });
});
