// DeepL API v2: POST /v2/translate with `DeepL-Auth-Key`; XML tag handling keeps our <x/> tags.
// Free-plan keys end in ":fx" and live on api-free.deepl.com.
import { ProviderError, type MachineTranslator } from '../../ports/machine-translator.ts';
import { postJson, primary, type ProviderFetch } from '../provider-http.ts';

export type DeeplOptions = { apiKey: string; url?: string; fetch?: ProviderFetch; timeoutMs?: number };

// Targets DeepL wants with a region or script; others are the primary subtag in upper case.
const REGIONAL_TARGETS = new Set(['EN-GB', 'EN-US', 'PT-BR', 'PT-PT', 'ZH-HANS', 'ZH-HANT', 'ES-419']);

export function deeplTarget(code: string): string {
  const upper = code.toUpperCase();
  if (REGIONAL_TARGETS.has(upper)) return upper;
  const base = primary(code).toUpperCase();
  // DeepL no longer takes bare EN or PT as targets.
  if (base === 'EN') return 'EN-US';
  if (base === 'PT') return 'PT-PT';
  return base;
}

/**
 * The JSON-encoded texts of one request at most. DeepL refuses a request body over 128 KiB (413);
 * the rest of the body (languages, tag handling, the array's brackets) is well under the 8 KiB left.
 */
const DEEPL_BATCH_BYTES = 120 * 1024;

export function deeplTranslator(options: DeeplOptions): MachineTranslator {
  const base = (options.url ?? (options.apiKey.endsWith(':fx') ? 'https://api-free.deepl.com' : 'https://api.deepl.com')).replace(/\/+$/, '');
  const fetchFn = options.fetch ?? fetch;
  return {
    provider: 'deepl',
    batchSize: 50,
    batchBytes: DEEPL_BATCH_BYTES,
    async translate({ texts, from, to }) {
      if (texts.length === 0) return [];
      const answer = (await postJson(
        'deepl',
        fetchFn,
        `${base}/v2/translate`,
        { authorization: `DeepL-Auth-Key ${options.apiKey}` },
        { text: texts, source_lang: primary(from).toUpperCase(), target_lang: deeplTarget(to), tag_handling: 'xml', ignore_tags: ['x'] },
        options.timeoutMs ?? 10_000,
      )) as { translations?: { text?: unknown }[] };
      const out = answer.translations?.map((t) => t.text);
      if (!out || out.length !== texts.length || out.some((t) => typeof t !== 'string')) {
        throw new ProviderError('deepl', 0, `deepl answered ${out?.length ?? 'no'} translations for ${texts.length} texts`);
      }
      return out as string[];
    },
  };
}
