// Translation memory through the public API, on both databases: what the account already approved
// is suggested for a new key, exact before fuzzy, never across accounts, never drafts.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';

const t = useTestApp();

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

async function project(accountId?: string): Promise<TestProject> {
  let p: TestProject;
  if (accountId) {
    const created = await json(await t.admin('POST', `/accounts/${accountId}/projects`, { name: 'second' }));
    p = { accountId, projectId: created.id, apiKey: created.api_key.key, apiKeyId: created.api_key.id };
  } else p = await t.newProject('team');
  for (const code of ['en', 'de']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
  return p;
}

async function key(p: TestProject, name: string, values: Record<string, [string, string]>): Promise<string> {
  const k = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: name }));
  for (const [language, [value, status]] of Object.entries(values)) {
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/${language}`, { value, status }));
  }
  return k.id;
}

const suggest = async (p: TestProject, keyId: string, language = 'de', query = '') =>
  json(await t.call(p.apiKey, 'GET', `/v1/keys/${keyId}/suggestions/${language}${query}`));

describe('translation memory suggestions', () => {
  it("suggests the account's approved translations of the same and similar source texts, exact first, with their origin", async () => {
    const a = await project();
    await key(a, 'save', { en: ['Save changes', 'approved'], de: ['Änderungen speichern', 'approved'] });
    await key(a, 'save.all', { en: ['Save all changes', 'approved'], de: ['Alle Änderungen speichern', 'approved'] });
    await key(a, 'draft.only', { en: ['Save changes now', 'draft'], de: ['Jetzt speichern (Entwurf)', 'draft'] });
    await key(a, 'unrelated', { en: ['Delete account', 'approved'], de: ['Konto löschen', 'approved'] });
    const b = await project(a.accountId);
    const asked = await key(b, 'toolbar.save', { en: ['Save changes', 'draft'] });

    const body = await suggest(b, asked);
    expect(body.source).toEqual({ language: 'en', value: 'Save changes' });
    expect(body.suggestions.map((s: { value: string }) => s.value)).toEqual(['Änderungen speichern', 'Alle Änderungen speichern']);
    const [exact, fuzzy] = body.suggestions;
    expect(exact).toMatchObject({ score: 1, match: 'exact', source_value: 'Save changes', origin: { project_id: a.projectId, project_name: 'project', key: 'save', group_name: 'Default' } });
    expect(exact.origin.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(fuzzy.match).toBe('fuzzy');
    expect(fuzzy.score).toBeGreaterThanOrEqual(0.5);
    expect(fuzzy.score).toBeLessThan(1);

    expect((await suggest(b, asked, 'de', '?limit=1')).suggestions).toHaveLength(1);
    const bad = await t.call(b.apiKey, 'GET', `/v1/keys/${asked}/suggestions/de?limit=0`);
    expect(bad.status).toBe(422);
  });

  it('never crosses accounts, never suggests a deleted key, and follows edits and the source language', async () => {
    const a = await project();
    const other = await project();
    await key(other, 'secret', { en: ['Save changes', 'approved'], de: ['Geheim gespeichert', 'approved'] });
    const mine = await key(a, 'mine', { en: ['Save changes', 'approved'], de: ['Speichern', 'approved'] });
    const asked = await key(a, 'asked', { en: ['Save changes', 'draft'] });
    expect((await suggest(a, asked)).suggestions.map((s: { value: string }) => s.value)).toEqual(['Speichern']);

    // An edited source text is the memory's at once (the trigger follows every write path).
    await json(await t.call(a.apiKey, 'PUT', `/v1/keys/${mine}/translations/en`, { value: 'Discard everything', status: 'approved' }));
    expect((await suggest(a, asked)).suggestions).toEqual([]);
    await json(await t.call(a.apiKey, 'PUT', `/v1/keys/${mine}/translations/en`, { value: 'Save changes', status: 'approved' }));
    expect((await suggest(a, asked)).suggestions).toHaveLength(1);

    expect((await t.call(a.apiKey, 'DELETE', `/v1/keys/${mine}`)).status).toBe(204);
    expect((await suggest(a, asked)).suggestions).toEqual([]);
  });

  it('follows the source language setting (PATCH /admin/v1/projects/{id}), which must be a registered language', async () => {
    const a = await project();
    await json(await t.call(a.apiKey, 'POST', '/v1/languages', { code: 'fr' }));
    await key(a, 'mem', { de: ['Änderungen speichern', 'approved'], fr: ['Enregistrer les modifications', 'approved'] });
    const asked = await key(a, 'asked', { de: ['Änderungen speichern', 'draft'] });
    expect((await suggest(a, asked, 'fr')).source).toBeNull();
    expect((await t.admin('PATCH', `/projects/${a.projectId}`, { source_language: 'it' })).status).toBe(422);
    const patched = await json(await t.admin('PATCH', `/projects/${a.projectId}`, { source_language: 'de' }));
    expect(patched.source_language).toBe('de');
    const body = await suggest(a, asked, 'fr');
    expect(body.source).toEqual({ language: 'de', value: 'Änderungen speichern' });
    expect(body.suggestions.map((s: { value: string }) => s.value)).toEqual(['Enregistrer les modifications']);
  });

  // pg_trgm gives a text without letters or digits no trigrams, so a trigram search never finds it.
  for (const text of ['…', '😀', '→']) {
    it(`suggests an identical source without letters or digits (${text}) as an exact match`, async () => {
      const a = await project();
      await key(a, 'mem', { en: [text, 'approved'], de: [`DE ${text}`, 'approved'] });
      const asked = await key(a, 'asked', { en: [text, 'draft'] });
      const body = await suggest(a, asked);
      expect(body.suggestions.map((s: { value: string; match: string }) => [s.value, s.match])).toEqual([[`DE ${text}`, 'exact']]);
    });
  }

  it('ranks an exact match before a newer fuzzy one differing only in case (similarity 1)', async () => {
    const a = await project();
    await key(a, 'lower', { en: ['Save', 'approved'], de: ['Speichern', 'approved'] });
    await new Promise((r) => setTimeout(r, 20));
    await key(a, 'upper', { en: ['SAVE', 'approved'], de: ['SPEICHERN', 'approved'] });
    const asked = await key(a, 'asked', { en: ['Save', 'draft'] });
    const body = await suggest(a, asked);
    expect(body.suggestions.map((s: { value: string; match: string }) => [s.value, s.match])).toEqual([
      ['Speichern', 'exact'],
      ['SPEICHERN', 'fuzzy'],
    ]);
  });

  it('suggests each distinct translation once, however many keys share a more recent one', async () => {
    const a = await project();
    await key(a, 'older', { en: ['Save', 'approved'], de: ['Sichern', 'approved'] });
    // More keys sharing one translation than the suggestions' limit times four (the former fetch).
    for (let i = 0; i < 21; i++) await key(a, `shared.${i}`, { en: ['Save', 'approved'], de: ['Speichern', 'approved'] });
    const asked = await key(a, 'asked', { en: ['Save', 'draft'] });
    const body = await suggest(a, asked);
    expect(body.suggestions.map((s: { value: string }) => s.value)).toEqual(['Speichern', 'Sichern']);
  }, 60_000);

  it('answers 404 for unknown keys, other projects\' keys and unregistered languages; no source means no suggestions', async () => {
    const a = await project();
    const b = await project();
    const k = await key(a, 'k', { de: ['Nur Deutsch', 'approved'] });
    expect((await suggest(a, k)).source).toBeNull();
    expect((await suggest(a, k)).suggestions).toEqual([]);
    expect((await t.call(b.apiKey, 'GET', `/v1/keys/${k}/suggestions/de`)).status).toBe(404);
    expect((await t.call(a.apiKey, 'GET', `/v1/keys/${k}/suggestions/fr`)).status).toBe(404);
    expect((await t.call(a.apiKey, 'GET', `/v1/keys/00000000-0000-4000-8000-000000000000/suggestions/de`)).status).toBe(404);
    expect((await t.call(a.apiKey, 'GET', `/v1/keys/not-a-uuid/suggestions/de`)).status).toBe(422);
    expect((await t.call(undefined, 'GET', `/v1/keys/${k}/suggestions/de`)).status).toBe(401);
  });
});
