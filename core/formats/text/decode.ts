// Bytes to text for every reader. Text must be well-formed Unicode without NUL: Postgres text columns
// refuse NUL, and an unpaired surrogate has no UTF-8 form. Decoding is strict (no U+FFFD
// replacement) so that a mis-encoded file is refused instead of silently corrupted.
import { FormatError } from '../format-error.ts';
import { lineAt } from './lines.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The 1-based line of the first byte that is not part of a valid UTF-8 sequence. */
function badUtf8Line(body: Uint8Array): number {
  let line = 1;
  let i = 0;
  while (i < body.length) {
    const b = body[i] ?? 0;
    if (b === 0x0a) line++;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return line;
    for (let k = 1; k <= need; k++) {
      const c = body[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return line;
    }
    // Overlong three/four-byte forms, surrogates and code points past U+10FFFF.
    const c1 = body[i + 1] ?? 0;
    if ((b === 0xe0 && c1 < 0xa0) || (b === 0xed && c1 > 0x9f) || (b === 0xf0 && c1 < 0x90) || (b === 0xf4 && c1 > 0x8f)) return line;
    i += need + 1;
  }
  return line;
}

/** Refuses NUL anywhere in a decoded file, pointing at its line. */
export function assertNoNul(text: string): void {
  const nul = text.indexOf('\u0000');
  if (nul !== -1) throw new FormatError(['body', 'line', lineAt(text, nul)], 'file contains a NUL character');
}

/** Strict UTF-8, a leading byte order mark dropped. */
export function decodeUtf8(body: Uint8Array): string {
  if ((body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff)) {
    throw new FormatError(['body'], 'file is UTF-16 (it starts with a UTF-16 byte order mark); this format must be UTF-8');
  }
  let text: string;
  try {
    text = utf8.decode(body);
  } catch (error) {
    throw new FormatError(['body', 'line', badUtf8Line(body)], 'file is not valid UTF-8', { cause: error });
  }
  assertNoNul(text);
  return text;
}

/**
 * Strict decoding in a named encoding (a PO file's charset), for the encodings TextDecoder knows.
 * `declaredAt` is the line that names the charset, where an unknown one is reported.
 */
export function decodeCharset(body: Uint8Array, charset: string, declaredAt = 1): string {
  const label = charset.trim().toLowerCase();
  if (label === 'utf-8' || label === 'utf8' || label === 'us-ascii' || label === 'ascii' || label === 'charset') return decodeUtf8(body);
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch (error) {
    throw new FormatError(['body', 'line', declaredAt], `unknown charset '${charset}'`, { cause: error });
  }
  let text: string;
  try {
    text = decoder.decode(body);
  } catch (error) {
    throw new FormatError(['body'], `file is not valid ${charset}`, { cause: error });
  }
  assertNoNul(text);
  return text;
}
