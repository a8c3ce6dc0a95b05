// Any OpenAI-compatible chat-completions endpoint (OpenAI, Azure-style gateways, Ollama, vLLM,
// LM Studio): the texts go as a JSON array, the answer must be a JSON object holding an array of
// the same length. Temperature 0: a first draft should not vary from one run to the next.
import { ProviderError, type MachineTranslator } from '../../ports/machine-translator.ts';
import { postJson, type ProviderFetch } from '../provider-http.ts';

export type OpenAiChatOptions = { url: string; model: string; apiKey?: string; fetch?: ProviderFetch; timeoutMs?: number };

const SYSTEM = [
  'You translate user interface texts of a software product.',
  'You receive JSON: {"from": language, "to": language, "texts": [string, ...]}.',
  'Answer only JSON: {"translations": [string, ...]} with exactly one translation per text, in the same order.',
  'Keep every tag of the form <x id="N"/> exactly as it is, once, where it belongs in the translated sentence.',
  'Keep the tone and length of a user interface; do not add explanations.',
  'The JSON may also have "glossary": {source phrase: phrase to use}: translate each source phrase with its phrase to use (inflected as the sentence needs; one equal to its source phrase stays as written).',
  'And "avoid": [word, ...]: words of the target language the product does not use; never use them, say it another way.',
  'And "notes": one per text, or null: what the text is and where it shows (from the developers); use them to choose the words and the length, never translate them or put them in a translation.',
].join(' ');

/**
 * The JSON-encoded texts of one request at most. A model is bounded by tokens, not bytes: the answer
 * repeats the batch translated, and must fit the model's output limit (4,096-16,384 tokens for
 * hosted models; a local model's whole context is often 4,096-8,192) and be generated within one
 * timeout (60 s at a few dozen tokens a second). 8 KiB is about 2,000-3,000 tokens each way (about
 * 4 bytes a token in English, fewer in other scripts), which fits all of these.
 */
const OPENAI_BATCH_BYTES = 8 * 1024;

export function openAiChatTranslator(options: OpenAiChatOptions): MachineTranslator {
  const base = options.url.replace(/\/+$/, '');
  const fetchFn = options.fetch ?? fetch;
  return {
    provider: 'openai',
    batchSize: 20,
    batchBytes: OPENAI_BATCH_BYTES,
    async translate({ texts, from, to, glossary, avoid, notes }) {
      if (texts.length === 0) return [];
      const answer = (await postJson(
        'openai',
        fetchFn,
        `${base}/chat/completions`,
        options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
        {
          model: options.model,
          temperature: 0,
          response_format: { type: 'json_object' },
          messages: [
            { role: 'system', content: SYSTEM },
            {
              role: 'user',
              content: JSON.stringify({
                from,
                to,
                texts,
                ...(glossary?.length ? { glossary: Object.fromEntries(glossary.map((e) => [e.source, e.target])) } : {}),
                ...(avoid?.length ? { avoid } : {}),
                ...(notes?.some((n) => n !== null) ? { notes } : {}),
              }),
            },
          ],
        },
        options.timeoutMs ?? 60_000,
      )) as { choices?: { message?: { content?: unknown } }[] };
      const content = answer.choices?.[0]?.message?.content;
      let parsed: unknown;
      try {
        parsed = typeof content === 'string' ? JSON.parse(stripFence(content)) : undefined;
      } catch {
        parsed = undefined;
      }
      const out = (parsed as { translations?: unknown } | undefined)?.translations;
      if (!Array.isArray(out) || out.length !== texts.length || out.some((t) => typeof t !== 'string')) {
        throw new ProviderError('openai', 0, `the model answered no list of ${texts.length} translations`);
      }
      return out as string[];
    },
  };
}

// Local models often wrap JSON in a Markdown fence despite response_format.
const stripFence = (text: string) => text.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
