// DeepL API v2: POST /v2/translate with `DeepL-Auth-Key`; XML tag handling keeps our <x/> tags.
// Free-plan keys end in ":fx" and live on api-free.deepl.com. A call with glossary terms makes a
// DeepL glossary of them (POST /v2/glossaries), translates with it and deletes it: DeepL glossaries
// are immutable and an account keeps at most 1,000, so one is made for the call's own terms rather
// than kept in step with the project's (docs/decisions.md, "The glossary in machine translation").
import { GLOSSARY_EXTRA_TIMEOUT, ProviderError, type GlossaryEntry, type MachineTranslator } from '../../ports/machine-translator.ts';
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
      // The translation has the whole timeout; making and deleting the glossary a quarter of it
      // each (GLOSSARY_EXTRA_TIMEOUT, which MT_TIME_LIMIT_MS counts). A glossary that does not come
      // in time is done without, and never shortens the translation (found by review: a slow DeepL
      // made the translation time out).
      const sideMs = Math.max(250, Math.round((timeoutMs * GLOSSARY_EXTRA_TIMEOUT) / 2));
      const glossaryId = glossary?.length ? await createGlossary(fetchFn, base, auth, from, to, glossary, sideMs) : null;
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
        if (glossaryId !== null) await deleteQuietly(fetchFn, `${base}/v2/glossaries/${encodeURIComponent(glossaryId)}`, auth, sideMs);
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
 * when DeepL will not make one: a language pair it has no glossaries for (400), an account at its
 * glossary limit or rate (456, 429; a Free account keeps few), a failure of the glossary endpoint.
 * The texts are then translated without one, as before: a glossary helps a translation, its absence
 * should not cost it (found by review). A refused key (401, 403) is the call's failure: the
 * translation would be refused as well.
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
  // DeepL refuses an entry with a control character (C0 or C1), a Unicode line or paragraph
  // separator, leading or trailing white space, more than 1,024 UTF-8 bytes, or a source twice. A
  // glossary term may hold a C1 control (a cp1252 apostrophe read as Latin-1) or a pasted U+2028
  // (review), and one refused entry loses the glossary of the whole request: left out here instead.
  const seen = new Set<string>();
  const lines = entries.filter((e) => {
    const clean = (s: string) => s !== '' && s === s.trim() && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(s) && new TextEncoder().encode(s).length <= 1024;
    if (!clean(e.source) || !clean(e.target) || seen.has(e.source)) return false;
    seen.add(e.source);
    return true;
  });
  if (lines.length === 0) return null;
  const body = { name: GLOSSARY_NAME, source_lang: primary(from), target_lang: primary(to), entries: lines.map((e) => `${e.source}\t${e.target}`).join('\n'), entries_format: 'tsv' };
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    try {
      const made = (await postJson('deepl', fetchFn, `${base}/v2/glossaries`, auth, body, timeoutMs)) as { glossary_id?: unknown };
      if (typeof made.glossary_id !== 'string' || made.glossary_id === '') throw new ProviderError('deepl', 0, 'deepl answered no glossary_id for a new glossary');
      return made.glossary_id;
    } catch (error) {
      if (!(error instanceof ProviderError) || error.status === 401 || error.status === 403) throw error;
      // The account's glossaries are all taken (a Free account keeps one): glossaries of ours left
      // behind (a creation we stopped waiting for, a delete DeepL refused) are swept, once.
      const budget = timeoutMs - (performance.now() - started);
      if (error.status !== 456 || attempt > 0 || budget < 100 || !(await sweepLeftBehind(fetchFn, base, auth, Math.round(budget)))) return null;
    }
  }
}

/** The name of every glossary this adapter makes: how the sweep knows its own. */
const GLOSSARY_NAME = 'tms machine translation';
/** A glossary of ours older than this is left behind (a request's own lives for one call, seconds). */
const LEFT_BEHIND_MS = 10 * 60_000;

/** Deletes our glossaries older than LEFT_BEHIND_MS; true when one was. Never the account's others. */
async function sweepLeftBehind(fetchFn: ProviderFetch, base: string, auth: Record<string, string>, timeoutMs: number): Promise<boolean> {
  let listed: { glossaries?: { glossary_id?: unknown; name?: unknown; creation_time?: unknown }[] };
  try {
    const response = await fetchFn(`${base}/v2/glossaries`, { headers: { accept: 'application/json', ...auth }, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) {
      await response.body?.cancel();
      return false;
    }
    listed = (await response.json()) as typeof listed;
  } catch {
    return false;
  }
  const stale = (listed.glossaries ?? []).filter(
    (g) => g.name === GLOSSARY_NAME && typeof g.glossary_id === 'string' && typeof g.creation_time === 'string' && Date.now() - Date.parse(g.creation_time) > LEFT_BEHIND_MS,
  );
  let swept = false;
  for (const g of stale) swept = (await deleteQuietly(fetchFn, `${base}/v2/glossaries/${encodeURIComponent(g.glossary_id as string)}`, auth, timeoutMs)) || swept;
  return swept;
}
