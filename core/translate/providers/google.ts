// Google Cloud Translation - Basic (v2): POST /language/translate/v2?key=API_KEY with q as an array.
// format=html keeps our <x/> tags (html-text.ts escapes the text around them and decodes Google's
// entities on the way back). Basic has no glossaries: they are Advanced's (v3), made from a file in
// Cloud Storage, and this adapter does not use them.
import { ProviderError, type MachineTranslator } from '../../ports/machine-translator.ts';
import { fromHtml, toHtml } from '../html-text.ts';
import { postJson, primary, type ProviderFetch, type ReadProviderError } from '../provider-http.ts';

export type GoogleTranslateOptions = { apiKey: string; url?: string; fetch?: ProviderFetch; timeoutMs?: number };

export const GOOGLE_DEFAULT_URL = 'https://translation.googleapis.com';

/**
 * Google's code for a language as the project registers it (BCP 47). Chinese is named by region:
 * Simplified zh-CN (zh, zh-Hans, zh-SG), Traditional zh-TW (zh-Hant, zh-HK, zh-MO). Portuguese: Google's
 * `pt` is Brazil's, so pt-BR is `pt`, and `pt` alone, like every other region, European pt-PT (as
 * DeepL's adapter reads `pt`). Hebrew `he` (Google also takes the old `iw`), Norwegian `no` (Google
 * has one), Meitei `mni-Mtei`, and the Arabic-script Punjabi and Malay as Google names them. Every
 * other language is its primary subtag: Google translates into languages, not regions.
 */
export function googleLanguage(code: string): string {
  const lower = code.toLowerCase();
  const base = primary(code);
  if (base === 'zh') return /^zh-(hant|tw|hk|mo)\b/.test(lower) ? 'zh-TW' : 'zh-CN';
  if (base === 'pt') return lower === 'pt-br' ? 'pt' : 'pt-PT';
  if (base === 'iw') return 'he';
  if (base === 'nb' || base === 'no') return 'no';
  if (base === 'mni') return 'mni-Mtei';
  if ((base === 'pa' || base === 'ms') && /-arab\b/.test(lower)) return `${base}-Arab`;
  return base;
}

/** Google's documented limit: at most 128 text segments (q values) in one request. */
export const GOOGLE_MAX_SEGMENTS = 128;

/**
 * The JSON-encoded texts of one request at most. Google rejects a Basic request over 100K bytes (400
 * INVALID_ARGUMENT) and recommends at most 5K characters (code points) per request, latency growing
 * with size (cloud.google.com/translate/quotas, "Content limits per request"). A text's JSON bytes are
 * never fewer than its code points, so a batch within 5,000 is within the recommendation too; a
 * longer value goes alone, far under the 100K bytes (a value holds at most 10,000 characters).
 */
export const GOOGLE_BATCH_BYTES = 5_000;

/** Google's JSON error: its status (INVALID_ARGUMENT), reason (API_KEY_INVALID, dailyLimitExceeded) and message. */
export const readGoogleError: ReadProviderError = (status, body) => {
  const error = (body as { error?: { message?: unknown; status?: unknown; errors?: { reason?: unknown }[]; details?: { reason?: unknown }[] } } | null)?.error;
  if (!error || typeof error !== 'object') return undefined;
  const reasons = [...(error.details ?? []), ...(error.errors ?? [])].map((d) => d?.reason).filter((r): r is string => typeof r === 'string');
  const named = reasons[0] ?? (typeof error.status === 'string' ? error.status : undefined);
  const message = typeof error.message === 'string' ? error.message : undefined;
  // Over a quota Google answers 403 (dailyLimitExceeded, userRateLimitExceeded) or 429 RESOURCE_EXHAUSTED.
  const exhausted = status === 429 || reasons.some((r) => /limitexceeded|quotaexceeded|rate_limit_exceeded|resource_exhausted/i.test(r)) || error.status === 'RESOURCE_EXHAUSTED';
  return { reason: [named, message].filter(Boolean).join(': ') || undefined, exhausted };
};

export function googleTranslator(options: GoogleTranslateOptions): MachineTranslator {
  const base = (options.url ?? GOOGLE_DEFAULT_URL).replace(/\/+$/, '');
  const fetchFn = options.fetch ?? fetch;
  return {
    provider: 'google',
    batchSize: GOOGLE_MAX_SEGMENTS,
    batchBytes: GOOGLE_BATCH_BYTES,
    async translate({ texts, from, to }) {
      if (texts.length === 0) return [];
      const answer = (await postJson(
        'google',
        fetchFn,
        `${base}/language/translate/v2?key=${encodeURIComponent(options.apiKey)}`,
        {},
        { q: texts.map((t) => toHtml(t)), source: googleLanguage(from), target: googleLanguage(to), format: 'html' },
        options.timeoutMs ?? 10_000,
        readGoogleError,
      )) as { data?: { translations?: { translatedText?: unknown }[] } };
      const out = answer.data?.translations?.map((t) => t.translatedText);
      if (!out || out.length !== texts.length || out.some((t) => typeof t !== 'string')) {
        throw new ProviderError('google', 0, `google answered ${out?.length ?? 'no'} translations for ${texts.length} texts`);
      }
      return (out as string[]).map(fromHtml);
    },
  };
}
