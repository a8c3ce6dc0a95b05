// POST /v1/translate/{language} through the public API, with DeepL's protocol emulated: memory
// first and free, the provider for the rest, placeholders verified, quota checked before the
// provider is called, and nothing written when the provider fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestProject } from '../support/test-app.ts';
import { EMULATOR_KEYS, startMtEmulator, type MtEmulator } from '../support/mt-emulators.ts';

let emulator: MtEmulator;
let t: TestApp & { close(): Promise<void> };
let off: TestApp & { close(): Promise<void> };

beforeAll(async () => {
  emulator = await startMtEmulator();
  t = await startTestApp({ env: { DEEPL_API_KEY: EMULATOR_KEYS.deepl, DEEPL_API_URL: emulator.url } });
  off = await startTestApp();
});
afterAll(async () => {
  await t?.close();
  await off?.close();
  await emulator?.close();
});

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

async function setup(app: TestApp, languages = ['en', 'de'], accountId?: string): Promise<TestProject> {
  let p: TestProject;
  if (accountId) {
    const created = await json(await app.admin('POST', `/accounts/${accountId}/projects`, { name: 'second' }));
    p = { accountId, projectId: created.id, apiKey: created.api_key.key, apiKeyId: created.api_key.id };
  } else p = await app.newProject('team');
  for (const code of languages) await json(await app.call(p.apiKey, 'POST', '/v1/languages', { code }));
  return p;
}

async function key(app: TestApp, p: TestProject, name: string, values: Record<string, [string, string]>, group?: string): Promise<string> {
  const k = await json(await app.call(p.apiKey, 'POST', '/v1/keys', { key: name, ...(group ? { group_name: group } : {}) }));
  for (const [language, [value, status]] of Object.entries(values)) {
    await json(await app.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/${language}`, { value, status }));
  }
  return k.id;
}

// Every value whatever its status; a language without any is {} (the live read answers 404 then).
async function values(app: TestApp, p: TestProject, language: string): Promise<Record<string, unknown>> {
  const res = await app.call(p.apiKey, 'GET', `/v1/translations/${language}?status=all`);
  if (res.status === 404) return {};
  const translations = (await json(res)).translations as Record<string, { value: string } | string>;
  return Object.fromEntries(Object.entries(translations).map(([k, v]) => [k, typeof v === 'string' ? v : v.value]));
}
const units = async (app: TestApp, p: TestProject) => (await json(await app.call(p.apiKey, 'GET', '/v1/usage'))).translation_units_used as number;
const translate = (app: TestApp, p: TestProject, language: string, body: unknown = {}) => app.call(p.apiKey, 'POST', `/v1/translate/${language}`, body);

describe('POST /v1/translate/{language}', () => {
  it('fills from exact memory first (free), then the provider, keeping placeholders and rebuilding plurals', async () => {
    const a = await setup(t, ['en', 'de', 'ru']);
    await key(t, a, 'memory.save', { en: ['Save changes', 'approved'], de: ['Änderungen sichern', 'approved'] });
    const b = await setup(t, ['en', 'de', 'ru'], a.accountId);
    await key(t, b, 'toolbar.save', { en: ['Save changes', 'approved'] });
    await key(t, b, 'greeting', { en: ['Hello {name}, welcome to <b>%s</b>!', 'approved'] });
    await key(t, b, 'files', { en: ['{n, plural, one {# file} other {# files}}', 'approved'] });
    await key(t, b, 'no.source', { de: ['Schon da', 'draft'] });
    await key(t, b, 'nothing', {});
    const calls = emulator.calls.length;

    const body = await json(await translate(t, b, 'de'));
    expect(body).toMatchObject({ project_id: b.projectId, language: 'de', source_language: 'en', provider: 'deepl', dry_run: false, translated: 3, from_memory: 1, from_provider: 2, translation_units: 2, remaining: 0 });
    expect(body.skipped).toEqual([{ key_id: expect.any(String), key: 'nothing', reason: 'no_source' }]);
    expect(emulator.calls.length).toBe(calls + 1);
    expect(emulator.calls.at(-1)!.body.text).not.toContain('Save changes');

    const de = await values(t, b, 'de');
    expect(de).toMatchObject({
      'toolbar.save': 'Änderungen sichern',
      greeting: 'Hallo {name}, Willkommen TO <b>%s</b>!',
      files: '{n, plural, one {# Datei} other {# Dateien}}',
      'no.source': 'Schon da',
    });
    expect(await units(t, b)).toBe(2);

    const ru = await json(await translate(t, b, 'ru', { keys: [(await json(await t.call(b.apiKey, 'GET', '/v1/keys'))).keys.find((k: { key: string }) => k.key === 'files').id] }));
    expect(ru.translated).toBe(1);
    expect((await values(t, b, 'ru')).files).toBe('{n, plural, one {# FILE} few {# FILES} many {# FILES} other {# FILES}}');

    // Again: nothing is missing any more, nothing is asked.
    const again = await json(await translate(t, b, 'de'));
    expect(again).toMatchObject({ translated: 0, from_memory: 0, from_provider: 0, translation_units: 0 });
  });

  it('a translation that lost a placeholder is reported and not written; the others are', async () => {
    const p = await setup(t);
    await key(t, p, 'a', { en: ['Hello {name}', 'approved'] });
    await key(t, p, 'b', { en: ['Save', 'approved'] });
    emulator.dropTags(true);
    try {
      const body = await json(await translate(t, p, 'de'));
      expect(body.skipped).toEqual([{ key_id: expect.any(String), key: 'a', reason: 'placeholders_lost' }]);
      expect(body).toMatchObject({ translated: 1, from_provider: 1, translation_units: 1 });
    } finally {
      emulator.dropTags(false);
    }
    const de = await values(t, p, 'de');
    expect(de.a).toBeUndefined();
    expect(de.b).toBe('Speichern');
  });

  it('a provider failure is a 502 that writes and charges nothing', async () => {
    const p = await setup(t);
    await key(t, p, 'a', { en: ['Save', 'approved'] });
    emulator.failNext(456);
    const res = await translate(t, p, 'de');
    expect(res.status).toBe(502);
    expect((await res.json()).detail).toMatch(/deepl answered 456.*quota; retry later\. Nothing was written/);
    expect(await values(t, p, 'de')).toEqual({});
    expect(await units(t, p)).toBe(0);
  });

  it('the unit quota is checked before the provider is called: 402, no call, nothing written', async () => {
    const p = await setup(t);
    await json(await t.admin('PATCH', `/accounts/${p.accountId}`, { translation_unit_allowance: 1 }));
    for (const name of ['a', 'b', 'c']) await key(t, p, name, { en: [`Save ${name}`, 'approved'] });
    const calls = emulator.calls.length;
    const res = await translate(t, p, 'de');
    expect(res.status).toBe(402);
    expect((await res.json()).detail).toMatchObject({ code: 'QUOTA_EXCEEDED', used: 3, limit: 2 });
    expect(emulator.calls.length).toBe(calls);
    expect(await values(t, p, 'de')).toEqual({});
    // Within the quota it works.
    expect((await json(await translate(t, p, 'de', { keys: [(await json(await t.call(p.apiKey, 'GET', '/v1/keys'))).keys[0].id] }))).translated).toBe(1);
  });

  it('dry_run says what would happen without calling or writing; only_missing=false replaces drafts, never approved values', async () => {
    const p = await setup(t);
    await key(t, p, 'draft', { en: ['Save', 'approved'], de: ['alt', 'draft'] });
    await key(t, p, 'approved', { en: ['Welcome', 'approved'], de: ['Servus', 'approved'] });
    await key(t, p, 'other.group', { en: ['Hello', 'approved'] }, 'misc');
    const calls = emulator.calls.length;
    const dry = await json(await translate(t, p, 'de', { only_missing: false, dry_run: true }));
    expect(dry).toMatchObject({ dry_run: true, translated: 2, from_provider: 2, translation_units: 2 });
    expect(emulator.calls.length).toBe(calls);
    expect(await values(t, p, 'de')).toEqual({ draft: 'alt', approved: 'Servus' });

    const grouped = await json(await translate(t, p, 'de', { group: 'misc', status: 'review' }));
    expect(grouped.translated).toBe(1);
    const de = await json(await t.call(p.apiKey, 'GET', '/v1/translations/de?status=review'));
    expect(de.translations).toEqual({ 'other.group': 'Hallo' });
    // Draft and review values are replaced (the review one came back identical), the approved one is kept.
    const all = await json(await translate(t, p, 'de', { only_missing: false }));
    expect(all.translated).toBe(2);
    expect(await values(t, p, 'de')).toEqual({ draft: 'Speichern', approved: 'Servus', 'other.group': 'Hallo' });
  });

  it('refuses bad input with 4xx and nothing written', async () => {
    const p = await setup(t);
    const other = await setup(t);
    const foreign = await key(t, other, 'x', { en: ['Save', 'approved'] });
    expect((await translate(t, p, 'de', { status: 'approved' })).status).toBe(422);
    expect((await translate(t, p, 'de', { colour: 'blue' })).status).toBe(422);
    expect((await translate(t, p, 'de', { keys: [] })).status).toBe(422);
    expect((await translate(t, p, 'en')).status).toBe(422);
    expect((await translate(t, p, 'fr')).status).toBe(404);
    expect((await translate(t, p, 'de', { keys: [foreign] })).status).toBe(404);
    expect((await t.call(p.apiKey, 'POST', '/v1/translate/de', 'not json')).status).toBe(422);
    expect((await t.call(undefined, 'POST', '/v1/translate/de', {})).status).toBe(401);
    expect(await values(t, other, 'de')).toEqual({});
  });

  it('without a configured provider memory still fills, and the rest says machine translation is off', async () => {
    const a = await setup(off);
    await key(off, a, 'm', { en: ['Save changes', 'approved'], de: ['Sichern', 'approved'] });
    const b = await setup(off, ['en', 'de'], a.accountId);
    await key(off, b, 'same', { en: ['Save changes', 'approved'] });
    await key(off, b, 'new', { en: ['Something new', 'approved'] });
    const body = await json(await translate(off, b, 'de'));
    expect(body).toMatchObject({ provider: null, translated: 1, from_memory: 1, from_provider: 0, translation_units: 0 });
    expect(body.skipped).toEqual([{ key_id: expect.any(String), key: 'new', reason: 'machine_translation_off' }]);
  });
});
