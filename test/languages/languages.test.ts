import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';

const t = useTestApp();

describe('languages', () => {
  it('register, list in order added, and refuse duplicates with 409', async () => {
    const p = await t.newProject('team');
    for (const code of ['de', 'pt-BR', 'zh-Hant', 'fil']) {
      const res = await t.call(p.apiKey, 'POST', '/v1/languages', { code });
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ project_id: p.projectId, code, added: true });
    }
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(409);
    const list = await (await t.call(p.apiKey, 'GET', '/v1/languages')).json();
    expect(list.count).toBe(4);
    expect(list.languages.map((l: { code: string }) => l.code)).toEqual(['de', 'pt-BR', 'zh-Hant', 'fil']);
    expect(list.languages[0].added_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('canonicalize any casing, in bodies and paths alike', async () => {
    const p = await t.newProject('team');
    expect(await (await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'PT-br' })).json()).toMatchObject({ code: 'pt-BR' });
    expect(await (await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'sr-LATN' })).json()).toMatchObject({ code: 'sr-Latn' });
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'pt-BR' })).status).toBe(409);
    const del = await t.call(p.apiKey, 'DELETE', '/v1/languages/PT-BR');
    expect(del.status).toBe(200);
    expect((await del.json()).code).toBe('pt-BR');
  });

  it('refuse codes outside xx, xxx, xx-YY, xx-Yyyy with 422', async () => {
    const p = await t.newProject('team');
    for (const code of ['', 'e', 'engl', 'en_US', 'en-', 'en-US-x', 'en-12', '12', 'en-abcde', 'de ', 5, null]) {
      const res = await t.call(p.apiKey, 'POST', '/v1/languages', { code });
      expect(res.status, JSON.stringify(code)).toBe(422);
      expect((await res.json()).detail[0].loc).toEqual(['body', 'code']);
    }
    const bad = await t.call(p.apiKey, 'DELETE', '/v1/languages/en_US');
    expect(bad.status).toBe(422);
    expect((await bad.json()).detail[0].loc).toEqual(['path', 'code']);
  });

  it('free allows 2 languages (402 after), solo is unlimited', async () => {
    const free = await t.newProject('free');
    await t.call(free.apiKey, 'POST', '/v1/languages', { code: 'en' });
    await t.call(free.apiKey, 'POST', '/v1/languages', { code: 'de' });
    const third = await t.call(free.apiKey, 'POST', '/v1/languages', { code: 'fr' });
    expect(third.status).toBe(402);
    expect((await third.json()).detail).toMatch(/Language limit reached: the free plan allows 2 languages/);
    await t.call(free.apiKey, 'DELETE', '/v1/languages/de');
    expect((await t.call(free.apiKey, 'POST', '/v1/languages', { code: 'fr' })).status).toBe(201);

    const solo = await t.newProject('solo');
    for (const code of ['en', 'de', 'fr', 'es', 'it']) {
      expect((await t.call(solo.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
    }
  });

  it('concurrent registrations never pass the limit', async () => {
    const p = await t.newProject('free');
    const results = await Promise.all(['en', 'de', 'fr', 'es', 'it'].map((code) => t.call(p.apiKey, 'POST', '/v1/languages', { code })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status === 402)).toHaveLength(3);
  });

  it('delete removes every value of the language (counted) and the language; 404 after', async () => {
    const p = await t.newProject('team');
    await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' });
    await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'fr' });
    const sql = t.runtime.deps.sql;
    const ids: string[] = [];
    for (const key of ['a', 'b', 'c']) ids.push((await (await t.call(p.apiKey, 'POST', '/v1/keys', { key })).json()).id);
    const rows = ids.flatMap((key_id) => ['de', 'fr'].map((language) => ({ key_id, project_id: p.projectId, language, value: `${language}:${key_id}`, status: 'approved' })));
    await sql`insert into translations ${sql(rows)}`;
    const res = await t.call(p.apiKey, 'DELETE', '/v1/languages/de');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ project_id: p.projectId, code: 'de', translations_deleted: 3, deleted: true });
    const left = await sql`select language from translations where project_id = ${p.projectId}`;
    expect(left.map((r) => r.language)).toEqual(['fr', 'fr', 'fr']);
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/de')).status).toBe(404);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/languages')).json()).languages.map((l: { code: string }) => l.code)).toEqual(['fr']);
  });

  it("isolation: another project's languages are invisible and untouchable", async () => {
    const a = await t.newProject('team');
    const b = await t.newProject('team');
    await t.call(a.apiKey, 'POST', '/v1/languages', { code: 'ja' });
    expect((await (await t.call(b.apiKey, 'GET', '/v1/languages')).json()).count).toBe(0);
    expect((await t.call(b.apiKey, 'DELETE', '/v1/languages/ja')).status).toBe(404);
    expect((await t.call(b.apiKey, 'POST', '/v1/languages', { code: 'ja' })).status).toBe(201);
    expect((await (await t.call(a.apiKey, 'GET', '/v1/languages')).json()).count).toBe(1);
  });
  it('a project without English takes its first language as its source language; one with English keeps it', async () => {
    const sourceOf = async (projectId: string) => ((await (await t.admin('GET', `/projects/${projectId}`)).json()) as { source_language: string }).source_language;
    const p = await t.newProject('team');
    expect(await sourceOf(p.projectId)).toBe('en');
    await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' });
    expect(await sourceOf(p.projectId)).toBe('de');
    await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'fr' });
    await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'en' });
    expect(await sourceOf(p.projectId)).toBe('de');
    // The checks now compare with German: a French value that drops its placeholder is warned about.
    const key = (await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'greeting' })).json()) as { id: string };
    await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'Hallo {name}' });
    const fr = await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/fr`, { value: 'Bonjour' });
    expect(((await fr.json()) as { warnings: { check: string }[] }).warnings.map((w) => w.check)).toContain('placeholders');

    const withEnglish = await t.newProject('team');
    for (const code of ['en', 'de']) await t.call(withEnglish.apiKey, 'POST', '/v1/languages', { code });
    expect(await sourceOf(withEnglish.projectId)).toBe('en');
    // English registered later than another language: the first one had already become the source.
    const later = await t.newProject('team');
    for (const code of ['fr', 'en']) await t.call(later.apiKey, 'POST', '/v1/languages', { code });
    expect(await sourceOf(later.projectId)).toBe('fr');
  });
});
