// One contract for every machine translation adapter, each against its provider's emulated protocol.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError, type MachineTranslator } from '../../core/ports/machine-translator.ts';
import { deeplTarget, deeplTranslator } from '../../core/translate/providers/deepl.ts';
import { libreTranslateTranslator } from '../../core/translate/providers/libretranslate.ts';
import { openAiChatTranslator } from '../../core/translate/providers/openai-chat.ts';
import { translatorFromConfig } from '../../core/translate/translator-from-config.ts';
import { loadConfig } from '../../core/config.ts';
import { EMULATOR_KEYS, startMtEmulator, type MtEmulator } from '../support/mt-emulators.ts';

let emulator: MtEmulator;
beforeAll(async () => {
  emulator = await startMtEmulator();
});
afterAll(() => emulator.close());

const adapters: [string, () => MachineTranslator][] = [
  ['deepl', () => deeplTranslator({ apiKey: EMULATOR_KEYS.deepl, url: emulator.url })],
  ['openai', () => openAiChatTranslator({ url: `${emulator.url}/v1`, model: 'emulated-model', apiKey: EMULATOR_KEYS.openai })],
  ['libretranslate', () => libreTranslateTranslator({ url: emulator.url, apiKey: EMULATOR_KEYS.libretranslate })],
];

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
    const wrong =
      name === 'deepl'
        ? deeplTranslator({ apiKey: 'wrong', url: emulator.url })
        : name === 'openai'
          ? openAiChatTranslator({ url: `${emulator.url}/v1`, model: 'm', apiKey: 'wrong' })
          : libreTranslateTranslator({ url: emulator.url, apiKey: 'wrong' });
    const error = await wrong.translate({ texts: ['Save'], from: 'en', to: 'de' }).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect([401, 403]).toContain(error.status);
  });

  it('an unreachable provider is a ProviderError, within the timeout', async () => {
    const dead = name === 'deepl'
      ? deeplTranslator({ apiKey: 'k', url: 'http://127.0.0.1:9', timeoutMs: 2000 })
      : name === 'openai'
        ? openAiChatTranslator({ url: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 2000 })
        : libreTranslateTranslator({ url: 'http://127.0.0.1:9', timeoutMs: 2000 });
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

  it('configuration chooses the provider; none means off; two need MT_PROVIDER', () => {
    expect(translatorFromConfig(loadConfig({}))).toBeNull();
    expect(translatorFromConfig(loadConfig({ DEEPL_API_KEY: 'k:fx' }))?.provider).toBe('deepl');
    expect(translatorFromConfig(loadConfig({ LIBRETRANSLATE_URL: 'http://lt:5000' }))?.provider).toBe('libretranslate');
    expect(translatorFromConfig(loadConfig({ OPENAI_MODEL: 'llama3.2', OPENAI_BASE_URL: 'http://localhost:11434/v1' }))?.provider).toBe('openai');
    expect(() => translatorFromConfig(loadConfig({ DEEPL_API_KEY: 'k', LIBRETRANSLATE_URL: 'http://lt' }))).toThrow(/MT_PROVIDER/);
    expect(translatorFromConfig(loadConfig({ DEEPL_API_KEY: 'k', LIBRETRANSLATE_URL: 'http://lt', MT_PROVIDER: 'libretranslate' }))?.provider).toBe('libretranslate');
    expect(() => translatorFromConfig(loadConfig({ MT_PROVIDER: 'deepl' }))).toThrow(/not configured/);
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
