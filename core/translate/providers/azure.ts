// Azure AI Translator (v3): POST {endpoint}/translate?api-version=3.0&from=..&to=..&textType=html with
// `Ocp-Apim-Subscription-Key` (and `Ocp-Apim-Subscription-Region` for a regional or multi-service
// resource), a body of [{"Text": ...}]. HTML mode keeps our <x/> tags (html-text.ts escapes the text
// around them). Glossary terms go inline as Azure's dynamic dictionary,
// `<mstrans:dictionary translation="Übersicht">Dashboard</mstrans:dictionary>`, which Microsoft
// documents as working the same with and without HTML mode, and only for pairs with English on one
// side: other pairs are translated without it.
import { ProviderError, type GlossaryEntry, type MachineTranslator } from '../../ports/machine-translator.ts';
import { escapeAttribute, escapeHtml, fromHtml, toHtml } from '../html-text.ts';
import { postJson, primary, type ProviderFetch, type ReadProviderError } from '../provider-http.ts';

export type AzureTranslatorOptions = { apiKey: string; region?: string; url?: string; fetch?: ProviderFetch; timeoutMs?: number };

export const AZURE_DEFAULT_URL = 'https://api.cognitive.microsofttranslator.com';

/**
 * Azure's code for a language as the project registers it (BCP 47). Chinese is named by script:
 * zh-Hans (zh, zh-CN, zh-SG) and zh-Hant (zh-TW, zh-HK, zh-MO). Portuguese: Azure's `pt` is Brazil's,
 * so pt-BR is `pt`, and `pt` alone, like every other region, European `pt-pt` (as DeepL's adapter
 * reads `pt`). Norwegian is `nb` (no, nb), Canadian French `fr-ca`, Serbian by script (sr-Cyrl by
 * default, sr-Latn), Mongolian `mn-Cyrl` unless written mn-Mong, Filipino `fil` (tl), Hebrew `he`
 * (iw), Inuktitut in Latin script `iu-Latn`. Every other language is its primary subtag.
 */
export function azureLanguage(code: string): string {
  const lower = code.toLowerCase();
  const base = primary(code);
  switch (base) {
    case 'zh':
      return /^zh-(hant|tw|hk|mo)\b/.test(lower) ? 'zh-Hant' : 'zh-Hans';
    case 'pt':
      return lower === 'pt-br' ? 'pt' : 'pt-pt';
    case 'no':
    case 'nb':
      return 'nb';
    case 'fr':
      return lower === 'fr-ca' ? 'fr-ca' : 'fr';
    case 'sr':
      return /-latn\b/.test(lower) ? 'sr-Latn' : 'sr-Cyrl';
    case 'mn':
      return /-mong\b/.test(lower) ? 'mn-Mong' : 'mn-Cyrl';
    case 'tl':
      return 'fil';
    case 'iw':
      return 'he';
    case 'iu':
      return /-latn\b/.test(lower) ? 'iu-Latn' : 'iu';
    default:
      return base;
  }
}

/** Azure's documented limits of one Translate request: at most 1,000 array elements and 50,000 characters in all. */
export const AZURE_MAX_ELEMENTS = 1_000;
export const AZURE_MAX_CHARACTERS = 50_000;

/**
 * The JSON-encoded texts of one batch at most. A text's JSON bytes are never fewer than its
 * characters, so a batch within 50,000 is within Azure's 50,000 characters; the markup this adapter
 * adds (escapes, dictionary entries) can pass it, and the adapter then splits its own requests.
 */
export const AZURE_BATCH_BYTES = AZURE_MAX_CHARACTERS;

/** Azure's JSON error: a six-digit code (401000: the key; 403001: the free tier's quota used up) and its message. */
export const readAzureError: ReadProviderError = (status, body) => {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (!error || typeof error !== 'object') return undefined;
  const code = typeof error.code === 'number' || typeof error.code === 'string' ? String(error.code) : undefined;
  const message = typeof error.message === 'string' ? error.message : undefined;
  return { reason: [code, message].filter(Boolean).join(' ') || undefined, exhausted: status === 429 || code === '403001' };
};

export function azureTranslator(options: AzureTranslatorOptions): MachineTranslator {
  const base = (options.url ?? AZURE_DEFAULT_URL).replace(/\/+$/, '');
  const fetchFn = options.fetch ?? fetch;
  return {
    provider: 'azure',
    batchSize: AZURE_MAX_ELEMENTS,
    batchBytes: AZURE_BATCH_BYTES,
    async translate({ texts, from, to, glossary }) {
      if (texts.length === 0) return [];
      const source = azureLanguage(from);
      const target = azureLanguage(to);
      // The dynamic dictionary needs English on one side (and `from`, which is always sent).
      const terms = glossary?.length && (primary(from) === 'en' || primary(to) === 'en') ? dictionary(glossary) : null;
      const sent = texts.map((t) => (terms ? toHtml(t, terms) : toHtml(t)));
      const url = `${base}/translate?api-version=3.0&from=${encodeURIComponent(source)}&to=${encodeURIComponent(target)}&textType=html`;
      const headers = { 'Ocp-Apim-Subscription-Key': options.apiKey, ...(options.region ? { 'Ocp-Apim-Subscription-Region': options.region } : {}) };
      // One deadline for the batch, however many requests its markup makes of it.
      const deadline = performance.now() + (options.timeoutMs ?? 10_000);
      const out: string[] = [];
      for (const part of requests(sent)) {
        const answer = (await postJson('azure', fetchFn, url, headers, part.map((Text) => ({ Text })), Math.max(1, Math.round(deadline - performance.now())), readAzureError)) as {
          translations?: { text?: unknown }[];
        }[];
        const got = Array.isArray(answer) ? answer.map((a) => a?.translations?.[0]?.text) : undefined;
        if (!got || got.length !== part.length || got.some((t) => typeof t !== 'string')) {
          throw new ProviderError('azure', 0, `azure answered ${got?.length ?? 'no'} translations for ${part.length} texts`);
        }
        out.push(...(got as string[]).map(fromHtml));
      }
      return out;
    },
  };
}

/** `sent` as consecutive requests within Azure's limits (a text over them alone: Azure answers what it answers). */
function requests(sent: readonly string[]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let characters = 0;
  for (const text of sent) {
    if (current.length > 0 && (current.length >= AZURE_MAX_ELEMENTS || characters + text.length > AZURE_MAX_CHARACTERS)) {
      out.push(current);
      current = [];
      characters = 0;
    }
    current.push(text);
    characters += text.length;
  }
  if (current.length) out.push(current);
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/**
 * A text part's wrapper: each glossary term found in it (whole words, any case, the longest first so
 * that "Acme Cloud" wins over "Cloud") becomes a dynamic-dictionary entry with its phrase to use,
 * the rest is escaped. Entries with an empty side are left out (Azure's markup needs both).
 */
function dictionary(entries: readonly GlossaryEntry[]): (raw: string) => string {
  const usable = entries.filter((e) => e.source.trim() !== '' && e.target.trim() !== '');
  if (usable.length === 0) return escapeHtml;
  const byFolded = new Map(usable.map((e) => [e.source.toLowerCase(), e.target]));
  const sources = [...new Set(usable.map((e) => e.source))].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])(?:${sources.map(escapeRegExp).join('|')})(?![\\p{L}\\p{M}\\p{N}])`, 'giu');
  return (raw) => {
    let out = '';
    let at = 0;
    for (const match of raw.matchAll(pattern)) {
      const target = byFolded.get(match[0].toLowerCase());
      if (target === undefined) continue;
      out += escapeHtml(raw.slice(at, match.index)) + `<mstrans:dictionary translation="${escapeAttribute(target)}">${escapeHtml(match[0])}</mstrans:dictionary>`;
      at = match.index + match[0].length;
    }
    return out + escapeHtml(raw.slice(at));
  };
}
