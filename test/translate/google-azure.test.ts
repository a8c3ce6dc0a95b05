// Google Cloud Translation (Basic, v2) and Azure AI Translator (v3) through POST /v1/translate/{language},
// each against its emulated protocol (test/support/mt-emulators.ts): values written with their
// placeholders and punctuation as they were (both are read as HTML), the glossary given to Azure as
// dynamic-dictionary markup, and a provider's failure a 502 that writes and charges nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestProject } from '../support/test-app.ts';
import { EMULATOR_AZURE_REGION, EMULATOR_KEYS, startMtEmulator, type MtEmulator } from '../support/mt-emulators.ts';

let emulator: MtEmulator;
const apps: Record<'google' | 'azure' | 'googleWrongKey', TestApp & { close(): Promise<void> }> = {} as never;

beforeAll(async () => {
  emulator = await startMtEmulator();
  apps.google = await startTestApp({ env: { GOOGLE_TRANSLATE_API_KEY: EMULATOR_KEYS.google, GOOGLE_TRANSLATE_URL: emulator.url } });
  // On AWS: the provider named by MT_PROVIDER, its key the one secret (MT_API_KEY).
  apps.azure = await startTestApp({ env: { MT_PROVIDER: 'azure', MT_API_KEY: EMULATOR_KEYS.azure, AZURE_TRANSLATOR_REGION: EMULATOR_AZURE_REGION, AZURE_TRANSLATOR_URL: emulator.url } });
  apps.googleWrongKey = await startTestApp({ env: { GOOGLE_TRANSLATE_API_KEY: 'AIza-revoked', GOOGLE_TRANSLATE_URL: emulator.url } });
});
afterAll(async () => {
  for (const app of Object.values(apps)) await app?.close();
  await emulator?.close();
});

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

async function project(app: TestApp, sources: Record<string, string>, languages = ['en', 'de']): Promise<TestProject> {
  const p = await app.newProject('team');
  for (const code of languages) await json(await app.call(p.apiKey, 'POST', '/v1/languages', { code }));
  for (const [key, value] of Object.entries(sources)) {
    const k = await json(await app.call(p.apiKey, 'POST', '/v1/keys', { key }));
    await json(await app.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/en`, { value, status: 'approved' }));
  }
  return p;
}

async function values(app: TestApp, p: TestProject, language: string): Promise<Record<string, unknown>> {
  const res = await app.call(p.apiKey, 'GET', `/v1/translations/${language}?status=all`);
  if (res.status === 404) return {};
  const translations = (await json(res)).translations as Record<string, { value: string } | string>;
  return Object.fromEntries(Object.entries(translations).map(([k, v]) => [k, typeof v === 'string' ? v : v.value]));
}
const units = async (app: TestApp, p: TestProject) => (await json(await app.call(p.apiKey, 'GET', '/v1/usage'))).translation_units_used as number;

const sources = {
  greeting: "Hello {name}, don't save",
  html: 'Save <b>file</b> & "world"',
  plural: '{count, plural, one {# file} other {# files}}',
};

describe.each(['google', 'azure'] as const)('%s through POST /v1/translate', (provider) => {
  it('fills the language: placeholders, tags, apostrophes, quotes and ampersands come back as they were', async () => {
    const app = apps[provider];
    const p = await project(app, sources);
    const answer = await json(await app.call(p.apiKey, 'POST', '/v1/translate/de', {}));
    expect(answer).toMatchObject({ provider, translated: 3, from_provider: 3, skipped: [], remaining: 0 });
    expect(await values(app, p, 'de')).toEqual({
      greeting: "Hallo {name}, DON'T Speichern",
      html: 'Speichern <b>Datei</b> & "Welt"',
      plural: '{count, plural, one {# Datei} other {# Dateien}}',
    });
    expect(await units(app, p)).toBe(3);
  });

  it("the provider's failure is a 502 that writes and charges nothing", async () => {
    const app = apps[provider];
    const p = await project(app, { a: 'Save' });
    emulator.failNext(429);
    const res = await app.call(p.apiKey, 'POST', '/v1/translate/de', {});
    expect(res.status).toBe(502);
    expect((await res.json()).detail).toMatch(new RegExp(`${provider} answered 429.*retry later\\. Nothing was written`));
    expect(await values(app, p, 'de')).toEqual({});
    expect(await units(app, p)).toBe(0);
  });
});

describe('provider errors in their own shapes', () => {
  it("Google refusing the key (400 API_KEY_INVALID) is a 502 naming Google's reason, nothing written", async () => {
    const app = apps.googleWrongKey;
    const p = await project(app, { a: 'Save' });
    const res = await app.call(p.apiKey, 'POST', '/v1/translate/de', {});
    expect(res.status).toBe(502);
    expect((await res.json()).detail).toMatch(/google answered 400 \(API_KEY_INVALID: API key not valid.*Nothing was written/);
    expect(await values(app, p, 'de')).toEqual({});
    expect(await units(app, p)).toBe(0);
  });
});

describe('Azure with the glossary', () => {
  it("gets the project's terms found in each text as dynamic-dictionary entries, and the values use them", async () => {
    const app = apps.azure;
    const p = await project(app, { a: 'Hello dashboard', b: 'Welcome to Acme Cloud, {name}', c: 'Save' }, ['en', 'de', 'fr']);
    const add = async (body: Record<string, unknown>) => json(await app.call(p.apiKey, 'POST', '/v1/glossary', body));
    await add({ term: 'Dashboard', translations: { de: 'Übersicht' } });
    await add({ term: 'Acme Cloud', translatable: false, case_sensitive: true });
    await add({ term: 'Login', forbidden: true, translations: { de: 'Einloggen' } });
    const before = emulator.calls.length;
    expect(await json(await app.call(p.apiKey, 'POST', '/v1/translate/de', {}))).toMatchObject({ translated: 3, skipped: [] });
    const sent = emulator.calls.slice(before).flatMap((c) => c.body.map((e: { Text: string }) => e.Text));
    expect(sent.sort()).toEqual([
      'Hello <mstrans:dictionary translation="Übersicht">dashboard</mstrans:dictionary>',
      'Save',
      'Welcome to <mstrans:dictionary translation="Acme Cloud">Acme Cloud</mstrans:dictionary>, <x id="0"/>',
    ]);
    expect(await values(app, p, 'de')).toEqual({ a: 'Hallo Übersicht', b: 'Willkommen TO Acme Cloud, {name}', c: 'Speichern' });
    // French: Dashboard has no French translation; Acme Cloud is kept as written in every language.
    const fr = emulator.calls.length;
    await json(await app.call(p.apiKey, 'POST', '/v1/translate/fr', {}));
    expect(emulator.calls.slice(fr).flatMap((c) => c.body.map((e: { Text: string }) => e.Text)).sort()).toEqual([
      'Hello dashboard',
      'Save',
      'Welcome to <mstrans:dictionary translation="Acme Cloud">Acme Cloud</mstrans:dictionary>, <x id="0"/>',
    ]);
  });
});
