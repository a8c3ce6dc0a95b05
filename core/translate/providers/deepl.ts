// DeepL API v2: POST /v2/translate with `DeepL-Auth-Key`; XML tag handling keeps our <x/> tags.
// Free-plan keys end in ":fx" and live on api-free.deepl.com. A call with glossary terms makes a
// DeepL glossary of them (POST /v2/glossaries), translates with it and deletes it: DeepL glossaries
// are immutable and an account keeps at most 1,000, so one is made for the call's own terms rather
// than kept in step with the project's (docs/decisions.md, "The glossary in machine translation").
import { ProviderError, type GlossaryEntry, type MachineTranslator } from '../../ports/machine-translator.ts';
import { deleteQuietly, postJson, primary, type ProviderFetch } from '../provider-http.ts';

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
    async translate({ texts, from, to, glossary }) {
      if (texts.length === 0) return [];
      const auth = { authorization: `DeepL-Auth-Key ${options.apiKey}` };
      const timeoutMs = options.timeoutMs ?? 10_000;
      const glossaryId = glossary?.length ? await createGlossary(fetchFn, base, auth, from, to, glossary, timeoutMs) : null;
      let answer: { translations?: { text?: unknown }[] };
      try {
        answer = (await postJson(
          'deepl',
          fetchFn,
          `${base}/v2/translate`,
          auth,
          {
            text: texts,
            source_lang: primary(from).toUpperCase(),
            target_lang: deeplTarget(to),
            tag_handling: 'xml',
            ignore_tags: ['x'],
            ...(glossaryId === null ? {} : { glossary_id: glossaryId }),
          },
          timeoutMs,
        )) as { translations?: { text?: unknown }[] };
      } finally {
        if (glossaryId !== null) await deleteQuietly(fetchFn, `${base}/v2/glossaries/${encodeURIComponent(glossaryId)}`, auth, timeoutMs);
      }
      const out = answer.translations?.map((t) => t.text);
      if (!out || out.length !== texts.length || out.some((t) => typeof t !== 'string')) {
        throw new ProviderError('deepl', 0, `deepl answered ${out?.length ?? 'no'} translations for ${texts.length} texts`);
      }
      return out as string[];
    },
  };
}

/**
 * A DeepL glossary of the entries (TSV: a tab between source and target, one entry a line), or null
 * when DeepL has no glossaries for the language pair (it answers 400): the texts are then translated
 * without one, as before. Any other refusal (the key, the quota) is the call's failure.
 */
async function createGlossary(
  fetchFn: ProviderFetch,
  base: string,
  auth: Record<string, string>,
  from: string,
  to: string,
  entries: readonly GlossaryEntry[],
  timeoutMs: number,
): Promise<string | null> {
  // DeepL refuses an entry with a tab or line break, leading or trailing spaces, or a source twice;
  // glossary terms have none of these (core/glossary/schemas.ts), but a provider's 400 would lose
  // the whole call: such an entry is left out here instead.
  const seen = new Set<string>();
  const lines = entries.filter((e) => {
    const clean = (s: string) => s !== '' && s === s.trim() && !/[\t\r\n]/.test(s);
    if (!clean(e.source) || !clean(e.target) || seen.has(e.source)) return false;
    seen.add(e.source);
    return true;
  });
  if (lines.length === 0) return null;
  try {
    const made = (await postJson(
      'deepl',
      fetchFn,
      `${base}/v2/glossaries`,
      auth,
      { name: `tms ${primary(from)}-${primary(to)}`, source_lang: primary(from), target_lang: primary(to), entries: lines.map((e) => `${e.source}\t${e.target}`).join('\n'), entries_format: 'tsv' },
      timeoutMs,
    )) as { glossary_id?: unknown };
    if (typeof made.glossary_id !== 'string' || made.glossary_id === '') throw new ProviderError('deepl', 0, 'deepl answered no glossary_id for a new glossary');
    return made.glossary_id;
  } catch (error) {
    if (error instanceof ProviderError && error.status === 400) return null;
    throw error;
  }
}
