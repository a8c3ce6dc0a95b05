// GET /v1/manifest: languages with at least one live value, ordered by code, with approved counts
// that follow approvals, overwrites, deletions and language removal.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();

describe('GET /v1/manifest', () => {
  it('is empty for a project without values, even with registered languages', async () => {
    const p = await project(t, ['de', 'fr']);
    await p.key('home.title', 'home');
    expect(await body(await p.get('/v1/manifest'))).toEqual({ project_id: p.projectId, languages: [] });
  });

  it('lists languages with a value in code order, with name, iso and approved_count', async () => {
    const p = await project(t, ['pt-BR', 'fr', 'zh-Hant', 'fil', 'de', 'pt', 'it']);
    const a = await p.key('home.a', 'home');
    const b = await p.key('home.b', 'home');
    await p.put(a, 'pt-BR', 'Olá', 'approved');
    await p.put(b, 'pt-BR', 'Tchau', 'approved');
    await p.put(a, 'pt', 'Olá', 'draft');
    await p.put(a, 'fr', 'Salut', 'review');
    await p.put(a, 'zh-Hant', '你好', 'approved');
    await p.put(a, 'fil', 'Kumusta', 'approved');
    await p.put(a, 'de', 'Hallo', 'approved');
    await p.put(b, 'de', 'Tschüss', 'draft');
    // 'it' has no value: not listed.
    expect(await body(await p.get('/v1/manifest'))).toEqual({
      project_id: p.projectId,
      languages: [
        { code: 'de', name: 'German', iso: 'de', approved_count: 1 },
        { code: 'fil', name: 'Filipino', iso: null, approved_count: 1 },
        { code: 'fr', name: 'French', iso: 'fr', approved_count: 0 },
        { code: 'pt', name: 'Portuguese', iso: 'pt', approved_count: 0 },
        { code: 'pt-BR', name: 'Portuguese (Brazil)', iso: 'pt', approved_count: 2 },
        { code: 'zh-Hant', name: 'Chinese (Traditional)', iso: 'zh', approved_count: 1 },
      ],
    });
  }, 30_000);

  it("names a 3-letter code's ISO 639-1 code when its language has one (deu: de), and calls und Undetermined", async () => {
    const p = await project(t, ['deu', 'und', 'gsw']);
    const k = await p.key('home.title', 'home');
    for (const code of ['deu', 'und', 'gsw']) await p.put(k, code, 'x', 'approved');
    const manifest = await body(await p.get('/v1/manifest'));
    expect(manifest.languages).toEqual([
      { code: 'deu', name: 'German', iso: 'de', approved_count: 1 },
      { code: 'gsw', name: 'Swiss German', iso: null, approved_count: 1 },
      { code: 'und', name: 'Undetermined', iso: null, approved_count: 1 },
    ]);
  });

  it('follows approvals, overwrites, value deletions, key and group deletions and language removal', async () => {
    const p = await project(t, ['de', 'fr']);
    const [a, b, c, d] = await Promise.all(['home.a', 'home.b', 'nav.c', 'nav.d'].map((k) => p.key(k, k.split('.')[0])));
    const counts = async () =>
      Object.fromEntries(((await body(await p.get('/v1/manifest'))).languages as { code: string; approved_count: number }[]).map((l) => [l.code, l.approved_count]));

    for (const k of [a!, b!, c!, d!]) await p.put(k, 'de', 'entwurf');
    await p.put(a!, 'fr', 'brouillon');
    expect(await counts()).toEqual({ de: 0, fr: 0 });

    for (const k of [a!, b!, c!, d!]) await p.put(k, 'de', 'freigegeben', 'approved');
    await p.put(a!, 'fr', 'approuvé', 'approved');
    expect(await counts()).toEqual({ de: 4, fr: 1 });

    await p.put(b!, 'de', 'geändert'); // an overwrite without status is a draft again
    expect(await counts()).toEqual({ de: 3, fr: 1 });
    await p.put(b!, 'de', 'geprüft', 'review');
    expect(await counts()).toEqual({ de: 3, fr: 1 });

    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${a}/translations/de`)).status).toBe(204);
    expect(await counts()).toEqual({ de: 2, fr: 1 });

    expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${a}`)).status).toBe(204); // fr had only home.a
    expect(await counts()).toEqual({ de: 2 });

    expect((await t.call(p.apiKey, 'DELETE', '/v1/groups/nav')).status).toBe(204); // nav.c, nav.d
    expect(await counts()).toEqual({ de: 0 }); // home.b is in review: listed, nothing approved

    expect((await t.admin('POST', `/projects/${p.projectId}/groups/nav/restore`)).status).toBe(200);
    expect(await counts()).toEqual({ de: 2 });

    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/de')).status).toBe(200);
    expect(await counts()).toEqual({});
  });

  it('counts keys, not values of other languages, and renames change nothing', async () => {
    const p = await project(t, ['de', 'fr']);
    const keys = await Promise.all(Array.from({ length: 5 }, (_, i) => p.key(`k.${i}`, 'k')));
    for (const k of keys) await p.put(k, 'fr', 'oui', 'approved');
    await p.put(keys[0]!, 'de', 'ja', 'approved');
    const before = await body(await p.get('/v1/manifest'));
    expect(before.languages.map((l: { code: string; approved_count: number }) => [l.code, l.approved_count])).toEqual([
      ['de', 1],
      ['fr', 5],
    ]);
    expect((await t.call(p.apiKey, 'PATCH', '/v1/groups/k', { new_name: 'kk' })).status).toBe(200);
    expect(await body(await p.get('/v1/manifest'))).toEqual(before);
  });
});
