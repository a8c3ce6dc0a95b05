// One contract for every machine translation adapter, each against its provider's emulated protocol.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError, type MachineTranslator } from '../../core/ports/machine-translator.ts';
import { deeplTarget, deeplTranslator } from '../../core/translate/providers/deepl.ts';
import { libreTranslateTranslator } from '../../core/translate/providers/libretranslate.ts';
import { openAiChatTranslator } from '../../core/translate/providers/openai-chat.ts';
import { googleLanguage, googleTranslator } from '../../core/translate/providers/google.ts';
import { azureLanguage, azureTranslator } from '../../core/translate/providers/azure.ts';
import { translatorFromConfig } from '../../core/translate/translator-from-config.ts';
import { loadConfig } from '../../core/config.ts';
import { machineTranslationEnvironment } from '../../stacks/deploy-settings.ts';
import { EMULATOR_AZURE_REGION, EMULATOR_KEYS, startMtEmulator, type MtEmulator } from '../support/mt-emulators.ts';

let emulator: MtEmulator;
beforeAll(async () => {
  emulator = await startMtEmulator();
});
afterAll(() => emulator.close());

/** Each adapter at `url` with `key` (timeoutMs as given). */
type Factory = (url: string, key: string, timeoutMs?: number) => MachineTranslator;
const factories: Record<string, Factory> = {
  deepl: (url, apiKey, timeoutMs) => deeplTranslator({ apiKey, url, ...(timeoutMs ? { timeoutMs } : {}) }),
  openai: (url, apiKey, timeoutMs) => openAiChatTranslator({ url: `${url}/v1`, model: 'emulated-model', apiKey, ...(timeoutMs ? { timeoutMs } : {}) }),
  libretranslate: (url, apiKey, timeoutMs) => libreTranslateTranslator({ url, apiKey, ...(timeoutMs ? { timeoutMs } : {}) }),
  google: (url, apiKey, timeoutMs) => googleTranslator({ apiKey, url, ...(timeoutMs ? { timeoutMs } : {}) }),
  azure: (url, apiKey, timeoutMs) => azureTranslator({ apiKey, region: EMULATOR_AZURE_REGION, url, ...(timeoutMs ? { timeoutMs } : {}) }),
};
const keys: Record<string, string> = EMULATOR_KEYS;

const adapters: [string, () => MachineTranslator][] = Object.entries(factories).map(([name, make]) => [name, () => make(emulator.url, keys[name]!)]);

describe.each(adapters)('%s adapter', (name, make) => {
  it('translates a batch in order and keeps <x/> tags', async () => {
    const out = await make().translate({ texts: ['Hello <x id="0"/>', 'Save', 'no files'], from: 'en', to: 'de' });
    expect(out).toEqual(['Hallo <x id="0"/>', 'Speichern', 'Keine Dateien']);
    expect(emulator.calls.at(-1)?.provider).toBe(name);
  });

  it('an empty batch asks nothing', async () => {
    const before = emulator.calls.length;
    expect(await make().translate({ texts: [], from: 'en', to: 'de' })).toEqual([]);
    expect(emulator.calls.length).toBe(before);
  });

  it("the provider's quota and failures are ProviderErrors saying so", async () => {
    emulator.failNext(429);
    const limited = await make().translate({ texts: ['Save'], from: 'en', to: 'de' }).catch((e) => e);
    expect(limited).toBeInstanceOf(ProviderError);
    expect(limited).toMatchObject({ provider: name, status: 429, exhausted: true });
    emulator.failNext(500);
    expect(await make().translate({ texts: ['Save'], from: 'en', to: 'de' }).catch((e) => e)).toMatchObject({ status: 500, exhausted: false });
  });

  it('a wrong key is refused by the provider, not hidden', async () => {
    const wrong = factories[name]!(emulator.url, 'wrong');
    const error = await wrong.translate({ texts: ['Save'], from: 'en', to: 'de' }).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    // Google answers a key it does not know with a 400 naming it (API_KEY_INVALID), as it does.
    if (name === 'google') expect(error).toMatchObject({ status: 400, message: expect.stringContaining('API_KEY_INVALID') });
    else expect([401, 403]).toContain(error.status);
    expect(error.exhausted).toBe(false);
  });

  it('an unreachable provider is a ProviderError, within the timeout', async () => {
    const dead = factories[name]!('http://127.0.0.1:9', 'k', 2000);
    expect(await dead.translate({ texts: ['Save'], from: 'en', to: 'de' }).catch((e) => e)).toMatchObject({ status: 0 });
  });
});

describe('provider details', () => {
  it('DeepL: regional targets, free keys on api-free', () => {
    expect(deeplTarget('en')).toBe('EN-US');
    expect(deeplTarget('en-GB')).toBe('EN-GB');
    expect(deeplTarget('pt')).toBe('PT-PT');
    expect(deeplTarget('pt-BR')).toBe('PT-BR');
    expect(deeplTarget('de-AT')).toBe('DE');
    expect(deeplTarget('zh-Hant')).toBe('ZH-HANT');
  });

  it('DeepL sends tag handling and the auth header the real API wants', async () => {
    await deeplTranslator({ apiKey: EMULATOR_KEYS.deepl, url: emulator.url }).translate({ texts: ['Save'], from: 'en-US', to: 'fr' });
    const call = emulator.calls.at(-1)!;
    expect(call.body).toMatchObject({ source_lang: 'EN', target_lang: 'FR', tag_handling: 'xml', ignore_tags: ['x'] });
  });

  it('Google: codes as Google names them (zh-CN/zh-TW, pt for Brazil, pt-PT, he, no)', () => {
    const cases: [string, string][] = [
      ['de', 'de'], ['de-AT', 'de'], ['en-GB', 'en'],
      ['zh', 'zh-CN'], ['zh-CN', 'zh-CN'], ['zh-Hans', 'zh-CN'], ['zh-SG', 'zh-CN'],
      ['zh-TW', 'zh-TW'], ['zh-Hant', 'zh-TW'], ['zh-HK', 'zh-TW'], ['zh-Hant-HK', 'zh-TW'],
      ['pt', 'pt-PT'], ['pt-PT', 'pt-PT'], ['pt-BR', 'pt'], ['pt-AO', 'pt-PT'],
      ['he', 'he'], ['iw', 'he'], ['nb', 'no'], ['no', 'no'], ['fil', 'fil'], ['mni', 'mni-Mtei'], ['pa-Arab', 'pa-Arab'], ['pa', 'pa'], ['sr-Latn', 'sr'],
    ];
    expect(cases.map(([code]) => [code, googleLanguage(code)])).toEqual(cases);
  });

  it('Azure: codes as Azure names them (zh-Hans/zh-Hant, pt for Brazil, pt-pt, nb, fr-ca, sr-Cyrl/sr-Latn)', () => {
    const cases: [string, string][] = [
      ['de', 'de'], ['de-CH', 'de'], ['en-US', 'en'],
      ['zh', 'zh-Hans'], ['zh-CN', 'zh-Hans'], ['zh-Hans', 'zh-Hans'], ['zh-TW', 'zh-Hant'], ['zh-Hant', 'zh-Hant'], ['zh-HK', 'zh-Hant'],
      ['pt', 'pt-pt'], ['pt-PT', 'pt-pt'], ['pt-BR', 'pt'],
      ['no', 'nb'], ['nb', 'nb'], ['fr', 'fr'], ['fr-CA', 'fr-ca'], ['fr-BE', 'fr'],
      ['sr', 'sr-Cyrl'], ['sr-Cyrl', 'sr-Cyrl'], ['sr-Latn', 'sr-Latn'], ['sr-Latn-RS', 'sr-Latn'],
      ['mn', 'mn-Cyrl'], ['tl', 'fil'], ['iw', 'he'], ['he', 'he'],
    ];
    expect(cases.map(([code]) => [code, azureLanguage(code)])).toEqual(cases);
  });

  it('Google and Azure: the mapped codes are the ones sent, and the providers take them', async () => {
    const google = factories['google']!(emulator.url, EMULATOR_KEYS.google);
    expect(await google.translate({ texts: ['Save'], from: 'en-US', to: 'zh-Hant' })).toEqual(['SAVE']);
    expect(emulator.calls.at(-1)!.body).toMatchObject({ source: 'en', target: 'zh-TW', format: 'html' });
    expect(emulator.calls.at(-1)!.query).toEqual({ key: EMULATOR_KEYS.google });
    const azure = factories['azure']!(emulator.url, EMULATOR_KEYS.azure);
    expect(await azure.translate({ texts: ['Save'], from: 'en', to: 'pt-BR' })).toEqual(['SAVE']);
    const call = emulator.calls.at(-1)!;
    expect(call.query).toEqual({ 'api-version': '3.0', from: 'en', to: 'pt', textType: 'html' });
    expect(call.body).toEqual([{ Text: 'Save' }]);
    expect(call.headers['ocp-apim-subscription-key']).toBe(EMULATOR_KEYS.azure);
    expect(call.headers['ocp-apim-subscription-region']).toBe(EMULATOR_AZURE_REGION);
  });

  it("Google and Azure read HTML: a value's &, <, quotes and apostrophes come back as they were, not as entities", async () => {
    const text = `Tom & Jerry's "<x id="0"/>" < 5 &amp; &nbsp;`;
    for (const name of ['google', 'azure']) {
      const out = await factories[name]!(emulator.url, keys[name]!).translate({ texts: [text], from: 'en', to: 'de' });
      expect(out, name).toEqual([`TOM & JERRY'S "<x id="0"/>" < 5 &AMP; &NBSP;`]);
    }
    // Google serialized its answer as Google does: the apostrophe as &#39;.
    expect(emulator.calls.filter((c) => c.provider === 'google').at(-1)!.body.q).toEqual([`Tom &amp; Jerry's "<x id="0"/>" &lt; 5 &amp;amp; &amp;nbsp;`]);
  });

  it('Azure: a regional resource without its region is refused (401000), and the error says Azure\'s code', async () => {
    const noRegion = azureTranslator({ apiKey: EMULATOR_KEYS.azure, url: emulator.url });
    const error = await noRegion.translate({ texts: ['Save'], from: 'en', to: 'de' }).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'azure', status: 401, exhausted: false });
    expect(error.message).toMatch(/401000/);
  });

  it("Google's quota (403 dailyLimitExceeded) and Azure's free tier used up (403001) are the provider's quota, retried later", async () => {
    const fetch403 = (body: unknown) => (async () => new Response(JSON.stringify(body), { status: 403, headers: { 'content-type': 'application/json' } })) as unknown as typeof fetch;
    const google = googleTranslator({ apiKey: 'k', fetch: fetch403({ error: { code: 403, message: 'Daily Limit Exceeded', errors: [{ message: 'Daily Limit Exceeded', domain: 'usageLimits', reason: 'dailyLimitExceeded' }] } }) });
    expect(await google.translate({ texts: ['Save'], from: 'en', to: 'de' }).catch((e) => e)).toMatchObject({ status: 403, exhausted: true });
    const azure = azureTranslator({ apiKey: 'k', fetch: fetch403({ error: { code: 403001, message: 'The operation is not allowed because the subscription has exceeded its free quota.' } }) });
    expect(await azure.translate({ texts: ['Save'], from: 'en', to: 'de' }).catch((e) => e)).toMatchObject({ status: 403, exhausted: true });
    const forbidden = azureTranslator({ apiKey: 'k', fetch: fetch403({ error: { code: 403000, message: 'The operation is not allowed.' } }) });
    expect(await forbidden.translate({ texts: ['Save'], from: 'en', to: 'de' }).catch((e) => e)).toMatchObject({ status: 403, exhausted: false });
  });

  it('configuration chooses the provider; none means off; two need MT_PROVIDER', () => {
    expect(translatorFromConfig(loadConfig({}))).toBeNull();
    expect(translatorFromConfig(loadConfig({ DEEPL_API_KEY: 'k:fx' }))?.provider).toBe('deepl');
    expect(translatorFromConfig(loadConfig({ LIBRETRANSLATE_URL: 'http://lt:5000' }))?.provider).toBe('libretranslate');
    expect(translatorFromConfig(loadConfig({ OPENAI_MODEL: 'llama3.2', OPENAI_BASE_URL: 'http://localhost:11434/v1' }))?.provider).toBe('openai');
    expect(() => translatorFromConfig(loadConfig({ DEEPL_API_KEY: 'k', LIBRETRANSLATE_URL: 'http://lt' }))).toThrow(/MT_PROVIDER/);
    expect(translatorFromConfig(loadConfig({ DEEPL_API_KEY: 'k', LIBRETRANSLATE_URL: 'http://lt', MT_PROVIDER: 'libretranslate' }))?.provider).toBe('libretranslate');
    expect(() => translatorFromConfig(loadConfig({ MT_PROVIDER: 'deepl' }))).toThrow(/not configured/);
    expect(translatorFromConfig(loadConfig({ GOOGLE_TRANSLATE_API_KEY: 'AIza-k' }))?.provider).toBe('google');
    expect(translatorFromConfig(loadConfig({ AZURE_TRANSLATOR_KEY: 'k', AZURE_TRANSLATOR_REGION: 'westeurope' }))?.provider).toBe('azure');
    expect(() => translatorFromConfig(loadConfig({ GOOGLE_TRANSLATE_API_KEY: 'k', AZURE_TRANSLATOR_KEY: 'k' }))).toThrow(/several .*\(google, azure\)/);
    expect(translatorFromConfig(loadConfig({ GOOGLE_TRANSLATE_API_KEY: 'k', AZURE_TRANSLATOR_KEY: 'k', MT_PROVIDER: 'azure' }))?.provider).toBe('azure');
    expect(() => translatorFromConfig(loadConfig({ MT_PROVIDER: 'google' }))).toThrow(/google is not configured/);
    expect(() => loadConfig({ MT_PROVIDER: 'bing' })).toThrow(/deepl, openai, libretranslate, google, azure/);
    expect(() => loadConfig({ AZURE_TRANSLATOR_URL: 'api.cognitive.microsofttranslator.com' })).toThrow(/AZURE_TRANSLATOR_URL: must be a URL/);
    expect(() => loadConfig({ GOOGLE_TRANSLATE_URL: 'translation.googleapis.com' })).toThrow(/GOOGLE_TRANSLATE_URL: must be a URL/);
  });

  // On AWS the key is the one secret (MT_API_KEY) and TMS_MT_PROVIDER names the provider, as for DeepL;
  // Azure's region and endpoint are plain settings.
  it.each([
    ['google', () => ({ MT_PROVIDER: 'google', MT_API_KEY: EMULATOR_KEYS.google, GOOGLE_TRANSLATE_URL: emulator.url })],
    ['azure', () => ({ MT_PROVIDER: 'azure', MT_API_KEY: EMULATOR_KEYS.azure, AZURE_TRANSLATOR_URL: emulator.url, AZURE_TRANSLATOR_REGION: EMULATOR_AZURE_REGION })],
  ])('MT_API_KEY with MT_PROVIDER=%s is its key', async (name, env) => {
    const translator = translatorFromConfig(loadConfig(env()));
    expect(translator?.provider).toBe(name);
    expect(await translator!.translate({ texts: ['Save'], from: 'en', to: 'de' })).toEqual(['Speichern']);
  });

  it("a stage's plain settings carry Azure's region and endpoint and Google's endpoint to the functions; the key is the secret", async () => {
    const deployed = machineTranslationEnvironment({ TMS_MT_PROVIDER: 'azure', TMS_AZURE_TRANSLATOR_REGION: EMULATOR_AZURE_REGION, TMS_AZURE_TRANSLATOR_URL: emulator.url, TMS_GOOGLE_TRANSLATE_URL: 'https://proxy.example.com' });
    expect(deployed).toMatchObject({ MT_PROVIDER: 'azure', AZURE_TRANSLATOR_REGION: EMULATOR_AZURE_REGION, AZURE_TRANSLATOR_URL: emulator.url, GOOGLE_TRANSLATE_URL: 'https://proxy.example.com' });
    // The MachineTranslationKey secret arrives as MT_API_KEY (functions/lambda/resource-env.ts).
    const translator = translatorFromConfig(loadConfig({ ...deployed, MT_API_KEY: EMULATOR_KEYS.azure }));
    expect(translator?.provider).toBe('azure');
    expect(await translator!.translate({ texts: ['Save'], from: 'en', to: 'de' })).toEqual(['Speichern']);
  });

  // On AWS the key is one secret, MT_API_KEY; a stage that names its provider by its settings alone
  // (TMS_OPENAI_MODEL, TMS_LIBRETRANSLATE_URL) and not by MT_PROVIDER called it without the key.
  it.each([
    ['openai', () => ({ OPENAI_MODEL: 'emulated-model', OPENAI_BASE_URL: `${emulator.url}/v1`, MT_API_KEY: EMULATOR_KEYS.openai })],
    ['libretranslate', () => ({ LIBRETRANSLATE_URL: emulator.url, MT_API_KEY: EMULATOR_KEYS.libretranslate })],
  ])('MT_API_KEY is the key of the only provider configured (%s), MT_PROVIDER unset', async (name, env) => {
    const translator = translatorFromConfig(loadConfig(env()));
    expect(translator?.provider).toBe(name);
    expect(await translator!.translate({ texts: ['Save'], from: 'en', to: 'de' })).toEqual(['Speichern']);
  });
});
