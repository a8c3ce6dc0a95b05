// Machine translation providers (issue 17): DeepL, any OpenAI-compatible chat-completions endpoint
// (hosted models, Ollama, vLLM), LibreTranslate, Google Cloud Translation (Basic, v2) and Azure AI
// Translator (v3). Each adapter speaks its provider's protocol over
// fetch; none configured means machine translation is off. Texts arrive protected (core/translate/
// protect.ts): `<x id="n"/>` tags stand for placeholders and must come back unchanged.

export type TranslateRequest = {
  texts: readonly string[];
  /** Language codes as the project registers them (BCP 47: de, pt-BR, zh-Hant). */
  from: string;
  to: string;
  /**
   * The project's glossary over these texts (core/translate/glossary-for-texts.ts): each term found
   * in them with how it is said in `to` (a term kept as written: itself). DeepL gets it as a glossary
   * of its own, a chat model in its instructions, Azure as dynamic-dictionary markup around each term
   * (pairs with English only); LibreTranslate and Google (Basic) have no such thing.
   */
  glossary?: readonly GlossaryEntry[];
  /** Words of `to` the glossary forbids: a chat model is told not to use them (DeepL cannot be). */
  avoid?: readonly string[];
  /**
   * One note per text, or null: what the text is, from its key (its description, its character
   * limit). A chat model reads them to choose its words ("Open" a button's verb or a status); they
   * are never translated. DeepL's `context` is one per request, so it and LibreTranslate take none.
   */
  notes?: readonly (string | null)[];
};

/**
 * The share of its timeout a provider may spend beyond the translation on a request's glossary, in
 * all (DeepL: a quarter to make it, a quarter to delete it). MT_TIME_LIMIT_MS counts it per batch.
 */
export const GLOSSARY_EXTRA_TIMEOUT = 0.5;

/** A glossary term as a provider takes it: the source phrase and the phrase to use for it in `to`. */
export type GlossaryEntry = { source: string; target: string };

export interface MachineTranslator {
  readonly provider: 'deepl' | 'openai' | 'libretranslate' | 'google' | 'azure';
  /** Largest batch one call takes. */
  readonly batchSize: number;
  /**
   * Most bytes of JSON-encoded texts one call takes (DeepL refuses a body over 128 KiB; a model is
   * bounded by tokens): a batch closes at whichever of the two limits comes first.
   */
  readonly batchBytes: number;
  /**
   * One translation per text, in order, within the provider's timeout; a request with a `glossary`
   * may take up to GLOSSARY_EXTRA_TIMEOUT more of it (DeepL makes and deletes a glossary of its
   * own). Rejects with ProviderError when the provider fails.
   */
  translate(request: TranslateRequest): Promise<string[]>;
}

/** A provider's refusal or failure, with what the caller may do about it. */
export class ProviderError extends Error {
  readonly provider: MachineTranslator['provider'];
  /** The provider's HTTP status, or 0 when it could not be reached or answered nonsense. */
  readonly status: number;
  /** The provider's own quota or rate limit (DeepL 456, 429): worth retrying later, not now. */
  readonly exhausted: boolean;

  constructor(provider: MachineTranslator['provider'], status: number, message: string, exhausted = false) {
    super(message);
    this.name = 'ProviderError';
    this.provider = provider;
    this.status = status;
    this.exhausted = exhausted;
  }
}
