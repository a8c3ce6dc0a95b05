// How the texts of one translate call are split into provider requests: at most the provider's
// batchSize texts, and at most its byte budget of JSON-encoded texts (DeepL refuses a body over
// 128 KiB, and 50 texts of up to 10,000 characters each pass that by far).
// Each provider's budget, with its reason, is its adapter's (MachineTranslator's batchBytes).
import type { MachineTranslator } from '../ports/machine-translator.ts';

const utf8 = new TextEncoder();

/** A text's share of the request body: JSON-encoded (quotes, escapes) in UTF-8, and its comma. */
export const jsonBytes = (text: string) => utf8.encode(JSON.stringify(text)).length + 1;

/**
 * Consecutive batches of `texts`, in order. A batch closes when the next text would pass the count
 * or the byte budget; a text over the budget on its own goes alone (the provider answers what it
 * answers: it is not ours to cut a text in two).
 */
export function batches(texts: readonly string[], limits: { count: number; bytes: number }): string[][] {
  const out: string[][] = [];
  let batch: string[] = [];
  let bytes = 0;
  for (const text of texts) {
    const size = jsonBytes(text);
    if (batch.length > 0 && (batch.length >= limits.count || bytes + size > limits.bytes)) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(text);
    bytes += size;
  }
  if (batch.length) out.push(batch);
  return out;
}

/** The limits of one request to `translator`. */
export const batchLimits = (translator: Pick<MachineTranslator, 'batchSize' | 'batchBytes'>) => ({
  count: translator.batchSize,
  bytes: translator.batchBytes,
});
