// Which machine translator this server uses, from its configuration: none configured means the
// feature is off (the translate endpoint says so), several configured means MT_PROVIDER chooses.
import { machineTranslationProvider, type Config } from '../config.ts';
import type { MachineTranslator } from '../ports/machine-translator.ts';
import { deeplTranslator } from './providers/deepl.ts';
import { libreTranslateTranslator } from './providers/libretranslate.ts';
import { openAiChatTranslator } from './providers/openai-chat.ts';

type MtConfig = Pick<
  Config,
  'MT_PROVIDER' | 'MT_API_KEY' | 'DEEPL_API_KEY' | 'DEEPL_API_URL' | 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_MODEL' | 'LIBRETRANSLATE_URL' | 'LIBRETRANSLATE_API_KEY' | 'MT_TIMEOUT_MS'
>;

export function translatorFromConfig(config: MtConfig, fetchFn: typeof fetch = fetch): MachineTranslator | null {
  // A provider's own variable wins; MT_API_KEY is the key of the provider MT_PROVIDER names.
  const keyOf = (provider: MachineTranslator['provider'], own: string | undefined) => own ?? (config.MT_PROVIDER === provider ? config.MT_API_KEY : undefined);
  const deeplKey = keyOf('deepl', config.DEEPL_API_KEY);
  const provider = machineTranslationProvider(config);
  if (!provider) return null;
  const timeoutMs = config.MT_TIMEOUT_MS;
  switch (provider) {
    case 'deepl':
      return deeplTranslator({ apiKey: deeplKey!, ...(config.DEEPL_API_URL ? { url: config.DEEPL_API_URL } : {}), fetch: fetchFn, timeoutMs });
    case 'openai':
      return openAiChatTranslator({ url: config.OPENAI_BASE_URL, model: config.OPENAI_MODEL!, ...(keyOf('openai', config.OPENAI_API_KEY) ? { apiKey: keyOf('openai', config.OPENAI_API_KEY)! } : {}), fetch: fetchFn, timeoutMs });
    case 'libretranslate':
      return libreTranslateTranslator({ url: config.LIBRETRANSLATE_URL!, ...(keyOf('libretranslate', config.LIBRETRANSLATE_API_KEY) ? { apiKey: keyOf('libretranslate', config.LIBRETRANSLATE_API_KEY)! } : {}), fetch: fetchFn, timeoutMs });
  }
}
