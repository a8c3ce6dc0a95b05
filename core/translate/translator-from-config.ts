// Which machine translator this server uses, from its configuration: none configured means the
// feature is off (the translate endpoint says so), several configured means MT_PROVIDER chooses.
import { machineTranslationProvider, type Config } from '../config.ts';
import type { MachineTranslator } from '../ports/machine-translator.ts';
import { azureTranslator } from './providers/azure.ts';
import { deeplTranslator } from './providers/deepl.ts';
import { googleTranslator } from './providers/google.ts';
import { libreTranslateTranslator } from './providers/libretranslate.ts';
import { openAiChatTranslator } from './providers/openai-chat.ts';

type MtConfig = Pick<
  Config,
  'MT_PROVIDER' | 'MT_API_KEY' | 'DEEPL_API_KEY' | 'DEEPL_API_URL' | 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_MODEL' | 'LIBRETRANSLATE_URL' | 'LIBRETRANSLATE_API_KEY'
  | 'GOOGLE_TRANSLATE_API_KEY' | 'GOOGLE_TRANSLATE_URL' | 'AZURE_TRANSLATOR_KEY' | 'AZURE_TRANSLATOR_REGION' | 'AZURE_TRANSLATOR_URL' | 'MT_TIMEOUT_MS'
>;

export function translatorFromConfig(config: MtConfig, fetchFn: typeof fetch = fetch): MachineTranslator | null {
  const provider = machineTranslationProvider(config);
  if (!provider) return null;
  // A provider's own variable wins; MT_API_KEY is the key of the provider in use, the one MT_PROVIDER
  // names or the only one configured (on AWS the one secret, beside TMS_OPENAI_MODEL alone: sent
  // only when MT_PROVIDER was set too, OpenAI was called without a key).
  const keyOf = (own: string | undefined) => own ?? config.MT_API_KEY;
  const deeplKey = keyOf(config.DEEPL_API_KEY);
  const timeoutMs = config.MT_TIMEOUT_MS;
  switch (provider) {
    case 'deepl':
      return deeplTranslator({ apiKey: deeplKey!, ...(config.DEEPL_API_URL ? { url: config.DEEPL_API_URL } : {}), fetch: fetchFn, timeoutMs });
    case 'openai':
      return openAiChatTranslator({ url: config.OPENAI_BASE_URL, model: config.OPENAI_MODEL!, ...(keyOf(config.OPENAI_API_KEY) ? { apiKey: keyOf(config.OPENAI_API_KEY)! } : {}), fetch: fetchFn, timeoutMs });
    case 'libretranslate':
      return libreTranslateTranslator({ url: config.LIBRETRANSLATE_URL!, ...(keyOf(config.LIBRETRANSLATE_API_KEY) ? { apiKey: keyOf(config.LIBRETRANSLATE_API_KEY)! } : {}), fetch: fetchFn, timeoutMs });
    case 'google':
      return googleTranslator({ apiKey: keyOf(config.GOOGLE_TRANSLATE_API_KEY)!, ...(config.GOOGLE_TRANSLATE_URL ? { url: config.GOOGLE_TRANSLATE_URL } : {}), fetch: fetchFn, timeoutMs });
    case 'azure':
      return azureTranslator({
        apiKey: keyOf(config.AZURE_TRANSLATOR_KEY)!,
        ...(config.AZURE_TRANSLATOR_REGION ? { region: config.AZURE_TRANSLATOR_REGION } : {}),
        ...(config.AZURE_TRANSLATOR_URL ? { url: config.AZURE_TRANSLATOR_URL } : {}),
        fetch: fetchFn,
        timeoutMs,
      });
  }
}
