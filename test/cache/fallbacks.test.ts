// Fallback chains (issue 16): the project setting `fallbacks`, set through the admin API's project
// PATCH and validated; applied by the builder (a de-AT file holds every key, missing values taken
// from the chain in order); the raw file with ?fallback=false, the sources with ?fallback=explain;
// chains follow language removal; the live endpoints never apply them.
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, useTestApp, type TestProject } from '../support/test-app.ts';
import { rebuild, seed } from '../support/cache-helpers.ts';
import { buildGroupPath, buildLanguagePath } from '../../core/cache/build-urls.ts';
import { MAX_CHAIN_LENGTH } from '../../core/projects/fallbacks.ts';

const t = useTestApp();

const patch = (p: TestProject, body: unknown) => t.admin('PATCH', `/projects/${p.projectId}`, body);

async function chainedProject(): Promise<TestProject> {
  const p = await t.newProject('team');
  await seed(t, p, {
    'home.title': { 'de-AT': ['Servus', 'approved'], de: ['Hallo', 'approved'], en: ['Hello', 'approved'] },
    'home.body': { de: ['Text', 'approved'], en: ['Body', 'approved'] },
    'home.only_en': { en: ['English only', 'approved'] },
    // A draft in de-AT is not its value: the chain fills the key.
    'nav.back': { 'de-AT': ['Entwurf', 'draft'], de: ['Zurück', 'approved'], en: ['Back', 'approved'] },
    'nav.nowhere': { fr: ['Nulle part', 'approved'] },
  });
  const res = await patch(p, { fallbacks: { 'de-AT': ['de', 'en'] } });
  expect(res.status).toBe(200);
  await rebuild(t, p);
  return p;
}

const get = async (p: TestProject, path: string) => {
  const res = await t.call(p.apiKey, 'GET', path);
  expect(res.status, path).toBe(200);
  return { res, body: await res.json() };
};

describe('the fallbacks setting', () => {
  it('is {} on a new project, set and returned by PATCH (beside auto_rebuild), replaced as a whole', async () => {
    const p = await t.newProject('team');
    await seed(t, p, { 'a.b': { de: ['x', 'approved'], 'de-AT': ['y', 'approved'], en: ['z', 'approved'] } });
    const untouched = await (await patch(p, { auto_rebuild: true })).json();
    expect(untouched).toMatchObject({ id: p.projectId, auto_rebuild: true, fallbacks: {} });
    const set = await patch(p, { fallbacks: { 'de-at': ['de', 'EN'] } });
    expect(set.status).toBe(200);
    // Codes are canonicalized as everywhere else.
    expect(await set.json()).toMatchObject({ auto_rebuild: true, fallbacks: { 'de-AT': ['de', 'en'] } });
    expect(await (await patch(p, { auto_rebuild: false })).json()).toMatchObject({ auto_rebuild: false, fallbacks: { 'de-AT': ['de', 'en'] } });
    expect(await (await patch(p, { fallbacks: {} })).json()).toMatchObject({ fallbacks: {} });
  });

  it('refuses with 422 naming the field: unregistered languages, self reference, cycles, duplicates, over-long or empty chains, bad codes', async () => {
    const p = await t.newProject('team');
    await seed(t, p, { 'a.b': { de: ['x', 'approved'], 'de-AT': ['y', 'approved'], en: ['z', 'approved'], fr: ['w', 'approved'] } });
    const refused = async (fallbacks: unknown, loc: (string | number)[], words: string) => {
      const res = await patch(p, { fallbacks });
      expect(res.status, JSON.stringify(fallbacks)).toBe(422);
      const { detail } = await res.json();
      expect(detail, JSON.stringify(fallbacks)).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
      expect(detail.map((d: { msg: string }) => d.msg).join(' | ')).toContain(words);
    };
    await refused({ 'de-AT': ['de', 'it'] }, ['body', 'fallbacks', 'de-AT'], "'it' is not registered");
    await refused({ it: ['de'] }, ['body', 'fallbacks', 'it'], "'it' is not registered");
    await refused({ de: ['de', 'en'] }, ['body', 'fallbacks', 'de'], 'itself');
    await refused({ 'de-AT': ['de'], de: ['en'], en: ['de-AT'] }, ['body', 'fallbacks', 'de'], 'cycle: de -> en -> de-AT -> de');
    await refused({ 'de-AT': ['de', 'en', 'de'] }, ['body', 'fallbacks', 'de-AT'], 'twice');
    await refused({ 'de-AT': [] }, ['body', 'fallbacks', 'de-AT'], 'at least one');
    const many = ['de', 'en', 'fr', 'es', 'it', 'pt'].slice(0, MAX_CHAIN_LENGTH + 1);
    await refused({ 'de-AT': many }, ['body', 'fallbacks', 'de-AT'], `at most ${MAX_CHAIN_LENGTH}`);
    await refused({ 'de-AT': ['not a code'] }, ['body', 'fallbacks', 'de-AT', 0], 'language code');
    await refused({ 'de-AT': 'de' }, ['body', 'fallbacks', 'de-AT'], 'array');
    await refused(['de'], ['body', 'fallbacks'], 'object');
    // Keys the record would have merged or skipped: two spellings of one language (one chain was
    // dropped without a word), and `__proto__` (left out: the whole setting replaced by `{}`).
    await refused({ 'de-at': ['de'], 'de-AT': ['en'] }, ['body', 'fallbacks'], "'de-at' and 'de-AT' are one language (de-AT)");
    const proto = await t.call(undefined, 'PATCH', `/admin/v1/projects/${p.projectId}`, '{"fallbacks": {"__proto__": ["en"]}}', {
      Authorization: `Bearer ${ADMIN_TOKEN}`,
      'Content-Type': 'application/json',
    });
    expect(proto.status).toBe(422);
    expect(JSON.stringify(await proto.json())).toContain("'__proto__' is not a language code");
    // Nothing was saved by any refused request.
    expect(await (await patch(p, { auto_rebuild: false })).json()).toMatchObject({ fallbacks: {} });
    // An empty body changes nothing: 422 too.
    expect((await patch(p, {})).status).toBe(422);
    expect((await t.admin('PATCH', `/projects/00000000-0000-4000-8000-000000000000`, { fallbacks: {} })).status).toBe(404);
  });

  it('removing a language removes it from every chain (and its own chain) in the same transaction', async () => {
    const p = await t.newProject('team');
    await seed(t, p, { 'a.b': { de: ['x', 'approved'], 'de-AT': ['y', 'approved'], en: ['z', 'approved'], fr: ['w', 'approved'] } });
    expect((await patch(p, { fallbacks: { 'de-AT': ['de', 'en'], fr: ['en'], en: ['fr'] } })).status).toBe(422); // a cycle
    expect((await patch(p, { fallbacks: { 'de-AT': ['de', 'en'], fr: ['en'], de: ['fr'] } })).status).toBe(200);
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/en')).status).toBe(200);
    expect(await (await patch(p, { auto_rebuild: false })).json()).toMatchObject({ fallbacks: { 'de-AT': ['de'], de: ['fr'] } });
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/de-AT')).status).toBe(200);
    expect((await t.call(p.apiKey, 'DELETE', '/v1/languages/fr')).status).toBe(200);
    expect(await (await patch(p, { auto_rebuild: false })).json()).toMatchObject({ fallbacks: {} });
    // A removed language cannot be named again until registered again.
    expect((await patch(p, { fallbacks: { de: ['en'] } })).status).toBe(422);
  });
});

describe('built files with a chain', () => {
  it('hold every key, missing values taken from the chain in order', async () => {
    const p = await chainedProject();
    const { body } = await get(p, '/v1/cached/translations/de-AT');
    expect(body).toEqual({
      project_id: p.projectId,
      language: 'de-AT',
      status_filter: 'approved',
      count: 4,
      translations: { 'home.body': 'Text', 'home.only_en': 'English only', 'home.title': 'Servus', 'nav.back': 'Zurück' },
    });
    // Groups too, with groups the language has no value of its own in.
    expect((await get(p, '/v1/cached/translations/de-AT/nav')).body).toMatchObject({ group: 'nav', count: 1, translations: { 'nav.back': 'Zurück' } });
    expect((await get(p, '/v1/cached/translations/de-AT/home/home.only_en')).body).toEqual({ value: 'English only' });
    // Languages without a chain are untouched.
    expect((await get(p, '/v1/cached/translations/de')).body.translations).toEqual({ 'home.body': 'Text', 'home.title': 'Hallo', 'nav.back': 'Zurück' });
  });

  it('?fallback=false gives the raw file; ?fallback=explain adds the chain and where each filled value came from', async () => {
    const p = await chainedProject();
    const raw = await get(p, '/v1/cached/translations/de-AT?fallback=false');
    expect(raw.body).toEqual({ project_id: p.projectId, language: 'de-AT', status_filter: 'approved', count: 1, translations: { 'home.title': 'Servus' } });
    const explained = await get(p, '/v1/cached/translations/de-AT?fallback=explain');
    expect(explained.body).toEqual({
      project_id: p.projectId,
      language: 'de-AT',
      status_filter: 'approved',
      count: 4,
      translations: { 'home.body': 'Text', 'home.only_en': 'English only', 'home.title': 'Servus', 'nav.back': 'Zurück' },
      fallbacks: ['de', 'en'],
      sources: { 'home.body': 'de', 'home.only_en': 'en', 'nav.back': 'de' },
    });
    const resolved = await get(p, '/v1/cached/translations/de-AT?fallback=true');
    // Three representations, three validators.
    expect(new Set([raw.res.headers.get('etag'), explained.res.headers.get('etag'), resolved.res.headers.get('etag')]).size).toBe(3);
    // Groups: a group with no own value has no raw file.
    expect((await get(p, '/v1/cached/translations/de-AT/home?fallback=false')).body.translations).toEqual({ 'home.title': 'Servus' });
    expect((await t.call(p.apiKey, 'GET', '/v1/cached/translations/de-AT/nav?fallback=false')).status).toBe(404);
    expect((await get(p, '/v1/cached/translations/de-AT/nav?fallback=explain')).body).toMatchObject({ sources: { 'nav.back': 'de' }, fallbacks: ['de', 'en'] });
    // One key: its own value only, with fallback=false.
    expect((await t.call(p.apiKey, 'GET', '/v1/cached/translations/de-AT/home/home.only_en?fallback=false')).status).toBe(404);
    // Without a chain, every variant is the one file.
    const de = await get(p, '/v1/cached/translations/de');
    expect((await get(p, '/v1/cached/translations/de?fallback=false')).res.headers.get('etag')).toBe(de.res.headers.get('etag'));
    expect((await get(p, '/v1/cached/translations/de?fallback=explain')).body).toEqual(de.body);
    // Anything else is a 422 naming the query parameter.
    const bad = await t.call(p.apiKey, 'GET', '/v1/cached/translations/de-AT?fallback=maybe');
    expect(bad.status).toBe(422);
    expect((await bad.json()).detail[0].loc).toEqual(['query', 'fallback']);
  });

  it('the build URLs take ?fallback as well, and the manifest points at the default (filled) file', async () => {
    const p = await chainedProject();
    const manifest = (await get(p, '/v1/cached/manifest')).body;
    const deAt = manifest.languages.find((l: { code: string }) => l.code === 'de-AT');
    const filled = await get(p, deAt.url);
    expect(filled.res.headers.get('etag')).toBe(deAt.etag);
    expect(filled.body.count).toBe(4);
    expect((await get(p, `${buildLanguagePath(manifest.build_id, 'de-AT')}?fallback=false`)).body.count).toBe(1);
    expect((await get(p, `${buildGroupPath(manifest.build_id, 'de-AT', 'home')}?fallback=explain`)).body.sources).toEqual({ 'home.body': 'de', 'home.only_en': 'en' });
  });

  it('the live endpoints never apply fallbacks', async () => {
    const p = await chainedProject();
    const live = await (await t.call(p.apiKey, 'GET', '/v1/translations/de-AT')).json();
    expect(live.translations).toEqual({ 'home.title': 'Servus' });
    expect((await t.call(p.apiKey, 'GET', '/v1/translations/de-AT/home/home.only_en')).status).toBe(404);
  });

  it('a changed setting changes the next build; removing the chain leaves one file', async () => {
    const p = await chainedProject();
    expect((await patch(p, { fallbacks: { 'de-AT': ['en'] } })).status).toBe(200);
    await rebuild(t, p);
    expect((await get(p, '/v1/cached/translations/de-AT')).body.translations).toMatchObject({ 'home.body': 'Body', 'nav.back': 'Back', 'home.title': 'Servus' });
    expect((await patch(p, { fallbacks: {} })).status).toBe(200);
    await rebuild(t, p);
    const plain = await get(p, '/v1/cached/translations/de-AT');
    expect(plain.body.translations).toEqual({ 'home.title': 'Servus' });
    expect((await get(p, '/v1/cached/translations/de-AT?fallback=explain')).body).toEqual(plain.body);
  });
});
