// LibreTranslate (self-hostable): POST /translate with q as an array; the HTML format keeps tags.
import { ProviderError, type MachineTranslator } from '../../ports/machine-translator.ts';
import { postJson, primary, type ProviderFetch } from '../provider-http.ts';

export type LibreTranslateOptions = { url: string; apiKey?: string; fetch?: ProviderFetch; timeoutMs?: number };

// LibreTranslate names Chinese by script; every other language by its primary subtag.
const libreCode = (code: string) => (/^zh-(hant|tw|hk|mo)/i.test(code) ? 'zt' : primary(code));

/**
 * The JSON-encoded texts of one request at most. LibreTranslate sets no limit by default (its
 * --char-limit is off unless the server's admin sets one), but a self-hosted instance usually sits
 * behind a proxy with a body limit (nginx: 1 MiB), and on a CPU it must translate the whole batch
 * within one timeout (10 s): a conservative 64 KiB.
 */
const LIBRETRANSLATE_BATCH_BYTES = 64 * 1024;

export function libreTranslateTranslator(options: LibreTranslateOptions): MachineTranslator {
  const base = options.url.replace(/\/+$/, '');
  const fetchFn = options.fetch ?? fetch;
  return {
    provider: 'libretranslate',
    batchSize: 25,
    batchBytes: LIBRETRANSLATE_BATCH_BYTES,
    async translate({ texts, from, to }) {
      if (texts.length === 0) return [];
      const answer = (await postJson(
        'libretranslate',
        fetchFn,
        `${base}/translate`,
        {},
        { q: texts, source: libreCode(from), target: libreCode(to), format: 'html', ...(options.apiKey ? { api_key: options.apiKey } : {}) },
        options.timeoutMs ?? 10_000,
      )) as { translatedText?: unknown };
      const out = answer.translatedText;
      if (!Array.isArray(out) || out.length !== texts.length || out.some((t) => typeof t !== 'string')) {
        throw new ProviderError('libretranslate', 0, `libretranslate answered no list of ${texts.length} translations`);
      }
      return out as string[];
    },
  };
}
